import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_QUEUE, WebhookDeliveryJob } from '@palaver/contracts';
import { type Config, type Job, type JobQueue, jobData, logger, Ports, QueueConsumer, type QueueConsumption } from '@palaver/platform';
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
export class WebhookDeliveryWorker extends QueueConsumer {
  constructor(
    @Inject(Ports.jobs) jobs: JobQueue,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
  ) {
    super(jobs);
  }

  protected consumption(): QueueConsumption {
    const { WEBHOOK_TIMEOUT_MS, WEBHOOK_RECOVERY_INTERVAL_MS } = this.config;
    return {
      queue: WEBHOOK_QUEUE,
      handlers: { [WEBHOOK_DELIVERY_JOB]: (job) => this.attempt(job) },
      concurrency: DELIVERIES_AT_ONCE,
      periodic: {
        // An attempt may run up to its timeout, so only those overdue by more are lost.
        run: () => this.deliveries.requeueLost(WEBHOOK_TIMEOUT_MS + WEBHOOK_RECOVERY_INTERVAL_MS),
        everyMs: WEBHOOK_RECOVERY_INTERVAL_MS,
        failed: (err) => logger.warn({ err }, 'webhook recovery failed; tried again at the next interval'),
      },
    };
  }

  private async attempt(job: Job): Promise<void> {
    const data = jobData(WebhookDeliveryJob, job);
    if (data) await this.deliveries.attempt(data);
  }
}
