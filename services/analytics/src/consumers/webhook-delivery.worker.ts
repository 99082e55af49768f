import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_QUEUE, WebhookDeliveryJob } from '@palaver/contracts';
import { type Config, type Job, type JobQueue, type JobWorker, jobData, jobsByName, logger, PeriodicTask, Ports } from '@palaver/platform';
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
  private readonly recovery: PeriodicTask<number>;

  constructor(
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.config) config: Config,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
  ) {
    this.recovery = new PeriodicTask({
      // An attempt may run up to its timeout, so only those overdue by more are lost.
      run: () => this.deliveries.requeueLost(config.WEBHOOK_TIMEOUT_MS + config.WEBHOOK_RECOVERY_INTERVAL_MS),
      everyMs: config.WEBHOOK_RECOVERY_INTERVAL_MS,
      failed: (err) => logger.warn({ err }, 'webhook recovery failed; tried again at the next interval'),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const run = jobsByName('webhook', { [WEBHOOK_DELIVERY_JOB]: (job) => this.attempt(job) });
    this.worker = await this.jobs.process(WEBHOOK_QUEUE, run, { concurrency: DELIVERIES_AT_ONCE });
    void this.recovery.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.recovery.stop();
    await this.worker?.close();
    this.worker = null;
  }

  private async attempt(job: Job): Promise<void> {
    const data = jobData(WebhookDeliveryJob, job);
    if (data) await this.deliveries.attempt(data);
  }
}
