import { randomUUID } from 'node:crypto';
import { logger } from '../logger/logger';
import { runInstrumented, withTraceContext } from './job-instrumentation';
import { checkJobId, checkQueueName, DEFAULT_BACKOFF_MS } from './job-options';
import type { EnqueueOptions, Job, JobQueue, JobWorker } from './job-queue.port';

interface QueuedJob {
  id: string;
  name: string;
  /** The job's data as JSON, so every run gets a fresh copy, as from Redis. */
  json: string;
  attempts: number;
  backoffMs: number;
  attemptsMade: number;
}

interface Processor {
  handler: (job: Job) => Promise<void>;
  concurrency: number;
  running: Set<Promise<void>>;
  closed: boolean;
}

interface QueueState {
  waiting: QueuedJob[];
  processors: Processor[];
  /** Ids of jobs that exist (waiting, running or waiting to retry): the dedupe set. */
  existing: Set<string>;
  /** Rotates which processor gets the next job. */
  turn: number;
}

/**
 * Embedded job queue: per-queue FIFO, bounded concurrency per processor, retries with exponential
 * backoff, and jobId dedupe while the job exists. Jobs live in memory only: not persisted, so jobs
 * waiting when the process stops are lost (the BullMQ adapter is the durable one).
 */
export class InProcessJobQueue implements JobQueue {
  private readonly queues = new Map<string, QueueState>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closed = false;

  async enqueue(queue: string, name: string, data: unknown, options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) throw new Error('job queue is closed');
    checkQueueName(queue);
    if (options.jobId !== undefined) checkJobId(options.jobId);
    const state = this.state(queue);
    const id = options.jobId ?? randomUUID();
    if (state.existing.has(id)) return;
    state.existing.add(id);
    const job: QueuedJob = {
      id,
      name,
      json: JSON.stringify(withTraceContext(data) ?? null),
      attempts: Math.max(1, options.attempts ?? 1),
      backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
      attemptsMade: 0,
    };
    this.later(queue, state, job, options.delayMs ?? 0);
  }

  async process(queue: string, handler: (job: Job) => Promise<void>, options: { concurrency?: number } = {}): Promise<JobWorker> {
    if (this.closed) throw new Error('job queue is closed');
    checkQueueName(queue);
    const processor: Processor = {
      handler,
      concurrency: Math.max(1, options.concurrency ?? 1),
      running: new Set(),
      closed: false,
    };
    const state = this.state(queue);
    state.processors.push(processor);
    this.pump(queue);
    return {
      close: async () => {
        processor.closed = true;
        state.processors = state.processors.filter((p) => p !== processor);
        await Promise.allSettled([...processor.running]);
      },
    };
  }

  async exists(queue: string, jobId: string): Promise<boolean> {
    return this.queues.get(queue)?.existing.has(jobId) ?? false;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    const running: Promise<void>[] = [];
    for (const state of this.queues.values()) {
      for (const processor of state.processors) {
        processor.closed = true;
        running.push(...processor.running);
      }
      state.processors = [];
      state.waiting = [];
    }
    await Promise.allSettled(running);
  }

  private state(queue: string): QueueState {
    let state = this.queues.get(queue);
    if (!state) {
      state = { waiting: [], processors: [], existing: new Set(), turn: 0 };
      this.queues.set(queue, state);
    }
    return state;
  }

  /** Hands waiting jobs to processors with free slots, in FIFO order. */
  private pump(queue: string): void {
    const state = this.state(queue);
    while (state.waiting.length > 0) {
      const processor = this.nextFree(state);
      if (!processor) return;
      this.run(queue, state, processor, state.waiting.shift()!);
    }
  }

  private nextFree(state: QueueState): Processor | undefined {
    const count = state.processors.length;
    for (let i = 0; i < count; i++) {
      const processor = state.processors[(state.turn + i) % count]!;
      if (!processor.closed && processor.running.size < processor.concurrency) {
        state.turn = (state.turn + i + 1) % count;
        return processor;
      }
    }
    return undefined;
  }

  private run(queue: string, state: QueueState, processor: Processor, job: QueuedJob): void {
    job.attemptsMade += 1;
    const attempt = job.attemptsMade;
    const run = (async () => {
      try {
        await runInstrumented(queue, { id: job.id, name: job.name, data: JSON.parse(job.json), attempt }, processor.handler);
        state.existing.delete(job.id);
      } catch (err) {
        this.failed(queue, state, job, err);
      }
    })();
    processor.running.add(run);
    void run.finally(() => {
      processor.running.delete(run);
      if (!this.closed) this.pump(queue);
    });
  }

  private failed(queue: string, state: QueueState, job: QueuedJob, err: unknown): void {
    if (job.attemptsMade >= job.attempts || this.closed) {
      logger.error({ err, queue, job: job.name, jobId: job.id, attempt: job.attemptsMade }, 'job failed');
      state.existing.delete(job.id);
      return;
    }
    logger.warn({ err, queue, job: job.name, jobId: job.id, attempt: job.attemptsMade }, 'job failed, will retry');
    this.later(queue, state, job, job.backoffMs * 2 ** (job.attemptsMade - 1));
  }

  /** Queues the job after `delayMs` (at once when 0). */
  private later(queue: string, state: QueueState, job: QueuedJob, delayMs: number): void {
    if (delayMs <= 0) {
      state.waiting.push(job);
      this.pump(queue);
      return;
    }
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      state.waiting.push(job);
      this.pump(queue);
    }, delayMs);
    this.retryTimers.add(timer);
  }
}
