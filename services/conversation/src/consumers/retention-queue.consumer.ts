import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type Clock, type Config, type JobQueue, type JobWorker, logger, Ports } from '@palaver/platform';
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
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(RetentionService) private readonly retention: RetentionService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.worker = await this.jobs.process(RETENTION_QUEUE, async (job) => {
      if (job.name !== RETENTION_JOB) {
        logger.error({ jobId: job.id, name: job.name }, 'unknown retention job dropped');
        return;
      }
      await this.retention.runIfDue();
    });
    this.timer = setInterval(() => void this.tick(), this.config.RETENTION_CHECK_INTERVAL_MS);
    this.timer.unref();
    void this.tick();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.worker?.close();
    this.worker = null;
  }

  /** Queues today's job (a second one of the day is ignored while the first exists). */
  async tick(): Promise<void> {
    const day = this.clock.now().toISOString().slice(0, 10);
    await this.jobs
      .enqueue(RETENTION_QUEUE, RETENTION_JOB, { day }, { jobId: `retention-${day}`, attempts: 3, backoffMs: 60_000 })
      .catch((err: unknown) => logger.warn({ err }, 'could not queue the retention job; tried again at the next check'));
  }
}
