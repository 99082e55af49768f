import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type Clock, type Config, type JobQueue, type JobWorker, jobsByName, logger, PeriodicTask, Ports } from '@palaver/platform';
import { RetentionService } from '../services/retention.service';

export const RETENTION_QUEUE = 'conversation-retention';
const RETENTION_JOB = 'erase-expired';

/**
 * The daily retention job: every RETENTION_CHECK_INTERVAL_MS (and at start) a job named for the
 * UTC day is queued (one per day in the queue, however many instances queue it), and the job
 * runs retention unless it already ran that day (RetentionRunRepository).
 */
@Injectable()
export class RetentionQueueConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: JobWorker | null = null;
  private readonly check: PeriodicTask<void>;

  constructor(
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) config: Config,
    @Inject(RetentionService) private readonly retention: RetentionService,
  ) {
    this.check = new PeriodicTask({
      run: () => this.queueToday(),
      everyMs: config.RETENTION_CHECK_INTERVAL_MS,
      failed: (err) => logger.warn({ err }, 'could not queue the retention job; tried again at the next check'),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const run = jobsByName('retention', {
      [RETENTION_JOB]: async () => {
        await this.retention.runIfDue();
      },
    });
    this.worker = await this.jobs.process(RETENTION_QUEUE, run);
    void this.check.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.check.stop();
    await this.worker?.close();
    this.worker = null;
  }

  /** Queues today's job (a second one of the day is ignored while the first exists). */
  private async queueToday(): Promise<void> {
    const day = this.clock.now().toISOString().slice(0, 10);
    await this.jobs.enqueue(RETENTION_QUEUE, RETENTION_JOB, { day }, { jobId: `retention-${day}`, attempts: 3, backoffMs: 60_000 });
  }
}
