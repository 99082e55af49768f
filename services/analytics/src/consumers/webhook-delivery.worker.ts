import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_QUEUE, WebhookDeliveryJob } from '@palaver/contracts';
import { type Config, type Job, type JobQueue, type JobWorker, logger, Ports } from '@palaver/platform';
import { WebhookDeliveryService } from '../services/webhook-delivery.service';

/** Attempts one analytics process makes at once (each waits on a remote endpoint, up to its timeout). */
const DELIVERIES_AT_ONCE = 8;

/**
 * Runs delivery attempts from the `webhooks` queue, and every WEBHOOK_RECOVERY_INTERVAL_MS queues
 * again the attempts of pending deliveries whose job was lost. An attempt's job is not retried by
 * the queue (the delivery's schedule is); a job that throws (the store down) is found by the
 * recovery once overdue.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: JobWorker | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.worker = await this.jobs.process(WEBHOOK_QUEUE, (job) => this.run(job), { concurrency: DELIVERIES_AT_ONCE });
    this.timer = setInterval(() => this.sweep(), this.config.WEBHOOK_RECOVERY_INTERVAL_MS);
    this.timer.unref();
    this.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
    await this.worker?.close();
    this.worker = null;
  }

  /** One sweep at a time; an attempt may run up to its timeout, so only those overdue by more are lost. */
  sweep(): Promise<void> {
    this.sweeping ??= this.deliveries
      .requeueLost(this.config.WEBHOOK_TIMEOUT_MS + this.config.WEBHOOK_RECOVERY_INTERVAL_MS)
      .then(() => undefined)
      .catch((err: unknown) => logger.warn({ err }, 'webhook recovery failed; tried again at the next interval'))
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }

  private async run(job: Job): Promise<void> {
    const parsed = job.name === WEBHOOK_DELIVERY_JOB ? WebhookDeliveryJob.safeParse(job.data) : null;
    if (!parsed?.success) {
      logger.error({ jobId: job.id, name: job.name }, 'malformed webhook job dropped');
      return;
    }
    await this.deliveries.attempt(parsed.data);
  }
}
