import { type Job as BullJob, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { dependencyUnavailable, registerDependency } from '../health/dependencies';
import { logger } from '../logger/logger';
import { redisReadiness } from '../redis/redis-availability';
import { coalesceRedisWrites } from '../redis/redis-write-coalescing';
import { runInstrumented, withTraceContext } from './job-instrumentation';
import { checkJobId, checkQueueName, DEFAULT_BACKOFF_MS } from './job-options';
import type { EnqueueOptions, Job, JobQueue, JobWorker } from './job-queue.port';

export interface BullMqJobQueueOptions {
  /** BullMQ's key prefix (default `bull`). */
  prefix?: string;
  /**
   * How long a job's lock lasts without renewal (renewed every half of it). A worker that died
   * (kill -9) leaves its job locked this long; every `lockDurationMs / 2` the live workers look
   * for such stalled jobs and run them again, as a new attempt. Default 10 s.
   */
  lockDurationMs?: number;
}

/**
 * BullMQ: a Queue per queue name for enqueueing, a Worker per `process` call. Finished jobs are
 * removed, failed ones too once out of attempts (the failure is logged), so a jobId dedupes only
 * while its job exists, as in the embedded queue.
 */
export class BullMqJobQueue implements JobQueue {
  /** Shared by the queues and the workers' commands; each Worker adds its own blocking connection. */
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Set<Worker>();
  private readonly prefix: string | undefined;
  private readonly lockDurationMs: number;
  private closed = false;
  private readonly unregister: () => void;
  /**
   * The enqueues waiting for their job to be added, told when the connection drops (see
   * `enqueue`); and why, until it is ready again. A set each enqueue leaves, rather than a promise
   * they all race: a promise that never settles keeps every reaction ever added to it, and with it
   * each race's result (the job).
   */
  private readonly adding = new Set<(err: Error) => void>();
  private lost: Error | null = null;
  private readonly ready: () => Promise<void> | undefined;

  constructor(url: string, options: BullMqJobQueueOptions = {}) {
    // Each job costs three commands on it (added, moved to active, finished): see coalesceRedisWrites.
    this.connection = coalesceRedisWrites(new Redis(url, { maxRetriesPerRequest: null }));
    this.connection.on('error', (err) => logger.warn({ err }, 'redis job queue connection error'));
    this.prefix = options.prefix;
    this.lockDurationMs = options.lockDurationMs ?? 10_000;
    this.unregister = registerDependency('redis', () => this.connection.status === 'ready');
    this.ready = redisReadiness(this.connection);
    this.connection.on('close', () => {
      this.lost = dependencyUnavailable('redis', 'connection lost, reconnecting');
      for (const tell of this.adding) tell(this.lost);
      this.adding.clear();
    });
    this.connection.on('ready', () => {
      this.lost = null;
    });
  }

  async enqueue(queue: string, name: string, data: unknown, options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) throw new Error('job queue is closed');
    checkQueueName(queue);
    if (options.jobId !== undefined) checkJobId(options.jobId);
    // The connection waits for Redis to come back (BullMQ's workers need it to: maxRetriesPerRequest
    // null), but whoever enqueues is answering someone: fail at once while Redis is down, and when
    // it drops with the job on its way. A job whose command was in flight then may still be added
    // once Redis is back: its id (the reply's) keeps it from being added twice.
    const waiting = this.ready();
    if (waiting) await waiting;
    const added = this.queue(queue).add(name, withTraceContext(data) ?? null, {
      attempts: Math.max(1, options.attempts ?? 1),
      backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
      removeOnComplete: true,
      removeOnFail: true,
      delay: Math.max(0, options.delayMs ?? 0),
      // Last: no keys added after a spread on the hot path (test/support/keys-after-spread.ts).
      ...(options.jobId !== undefined ? { jobId: options.jobId } : {}),
    });
    added.catch(() => undefined); // when the connection drops first
    if (this.lost) throw this.lost;
    await new Promise<void>((resolve, reject) => {
      this.adding.add(reject);
      added.then(
        () => {
          this.adding.delete(reject);
          resolve();
        },
        (err: unknown) => {
          this.adding.delete(reject);
          reject(err);
        },
      );
    });
  }

  async process(queue: string, handler: (job: Job) => Promise<void>, options: { concurrency?: number } = {}): Promise<JobWorker> {
    if (this.closed) throw new Error('job queue is closed');
    checkQueueName(queue);
    const worker = new Worker(
      queue,
      async (job: BullJob) => {
        // A run after a stall (its worker died) is a new attempt too, so a handler can tell.
        const attempt = job.attemptsMade + (job.stalledCounter ?? 0) + 1;
        await runInstrumented(queue, { id: job.id ?? '', name: job.name, data: job.data, attempt }, handler);
      },
      {
        connection: this.connection,
        concurrency: Math.max(1, options.concurrency ?? 1),
        lockDuration: this.lockDurationMs,
        stalledInterval: Math.max(500, Math.floor(this.lockDurationMs / 2)),
        maxStalledCount: 1,
        ...(this.prefix !== undefined ? { prefix: this.prefix } : {}),
      },
    );
    worker.on('error', (err) => logger.warn({ err, queue }, 'job worker error'));
    worker.on('failed', (job, err) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1);
      logger[final ? 'error' : 'warn'](
        { err, queue, job: job.name, jobId: job.id, attempt: job.attemptsMade },
        final ? 'job failed' : 'job failed, will retry',
      );
    });
    this.workers.add(worker);
    await worker.waitUntilReady();
    return {
      close: async () => {
        this.workers.delete(worker);
        await worker.close();
      },
    };
  }

  /** Finished and failed jobs are removed (see `enqueue`), so a job that is found still exists. */
  async exists(queue: string, jobId: string): Promise<boolean> {
    if (this.closed) throw new Error('job queue is closed');
    checkQueueName(queue);
    return (await this.queue(queue).getJob(jobId)) !== undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unregister();
    await Promise.all([...this.workers].map((worker) => worker.close()));
    this.workers.clear();
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
    await this.connection.quit();
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, ...(this.prefix !== undefined ? { prefix: this.prefix } : {}) });
      queue.on('error', (err) => logger.warn({ err, queue: name }, 'job queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
