import { Inject, Injectable } from '@nestjs/common';
import { type Clock, type Config, type JobQueue, logger, Ports, QueueConsumer, type QueueConsumption } from '@palaver/platform';
import { RetentionService } from '../services/retention.service';

export const RETENTION_QUEUE = 'conversation-retention';
const RETENTION_JOB = 'erase-expired';

/**
 * The daily retention job: every RETENTION_CHECK_INTERVAL_MS (and at start) a job named for the
 * UTC day is queued (one per day in the queue, however many instances queue it), and the job
 * runs retention unless it already ran that day (RetentionRunRepository).
 */
@Injectable()
export class RetentionQueueConsumer extends QueueConsumer {
  constructor(
    @Inject(Ports.jobs) jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(RetentionService) private readonly retention: RetentionService,
  ) {
    super(jobs);
  }

  protected consumption(): QueueConsumption {
    return {
      queue: RETENTION_QUEUE,
      handlers: {
        [RETENTION_JOB]: async () => {
          await this.retention.runIfDue();
        },
      },
      periodic: {
        run: () => this.queueToday(),
        everyMs: this.config.RETENTION_CHECK_INTERVAL_MS,
        failed: (err) => logger.warn({ err }, 'could not queue the retention job; tried again at the next check'),
      },
    };
  }

  /** Queues today's job (a second one of the day is ignored while the first exists). */
  private async queueToday(): Promise<void> {
    const day = this.clock.now().toISOString().slice(0, 10);
    await this.jobs.enqueue(RETENTION_QUEUE, RETENTION_JOB, { day }, { jobId: `retention-${day}`, attempts: 3, backoffMs: 60_000 });
  }
}
