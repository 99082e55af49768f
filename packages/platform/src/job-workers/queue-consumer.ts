import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job, JobQueue, JobWorker } from '../job-queue/job-queue.port';
import { jobsByName } from './job-dispatch';
import { PeriodicTask } from './periodic-task';

/** What a service takes from one queue while it is up, and the work it does beside it. */
export interface QueueConsumption {
  queue: string;
  /** The handler of each job name. */
  handlers: Record<string, (job: Job) => Promise<void>>;
  /** Jobs run at once by this process (the queue's default when absent). */
  concurrency?: number;
  /** Work done at start and then every so often (a schedule, a recovery sweep), one run at a time. */
  periodic?: { run: () => Promise<unknown>; everyMs: number; failed: (err: unknown) => void };
}

/**
 * A provider that takes jobs from its queue once the service is up (and starts its periodic work),
 * and stops both when the service closes: the periodic run under way and the jobs in progress
 * are waited for.
 */
export abstract class QueueConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: JobWorker | null = null;
  private periodic: PeriodicTask<unknown> | null = null;

  constructor(protected readonly jobs: JobQueue) {}

  /** Read once, when the service is up. */
  protected abstract consumption(): QueueConsumption;

  async onApplicationBootstrap(): Promise<void> {
    const { queue, handlers, concurrency, periodic } = this.consumption();
    this.worker = await this.jobs.process(queue, jobsByName(queue, handlers), concurrency === undefined ? undefined : { concurrency });
    if (periodic) {
      this.periodic = new PeriodicTask(periodic);
      void this.periodic.start();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic?.stop();
    this.periodic = null;
    await this.worker?.close();
    this.worker = null;
  }
}
