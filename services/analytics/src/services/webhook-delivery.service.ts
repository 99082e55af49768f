import { Inject, Injectable } from '@nestjs/common';
import { type FeedEntry, WEBHOOK_DELIVERY_JOB, WEBHOOK_QUEUE, type WebhookDeliveryJob, type WebhookPayload } from '@palaver/contracts';
import { type Clock, type Config, inSpan, type JobQueue, logger, Ports, SpanKind, serviceMetrics } from '@palaver/platform';
import { decideAfterAttempt, isSuccess } from '../domain/webhook-attempt.decider';
import { deliveryIdOf, subscribes, webhookPayload } from '../domain/webhook-endpoint';
import { parseRetryDelays } from '../domain/webhook-retry.schedule';
import { type StoredWebhook, WebhookRepository } from '../repositories/webhook.repository';
import { WebhookSender } from '../repositories/webhook.sender';
import { type StoredDelivery, WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository';

/** The job of attempt `attempt` of a delivery: one per attempt, so a retry is never deduped into the one before. */
export const attemptJobId = (deliveryId: string, attempt: number): string => `${deliveryId}-a${attempt}`;

/**
 * Deliveries of events to webhook endpoints: made from feed entries (one per subscribed endpoint),
 * each attempt a job on the `webhooks` queue. The delivery document is what counts: an attempt's
 * job that finds it already past that attempt does nothing, and a pending delivery whose job is
 * gone (an embedded queue's, on a restart) is queued again by `requeueLost`.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly retryDelaysMs: readonly number[];

  constructor(
    @Inject(WebhookRepository) private readonly webhooks: WebhookRepository,
    @Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(WebhookSender) private readonly sender: WebhookSender,
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
  ) {
    this.retryDelaysMs = parseRetryDelays(config.WEBHOOK_RETRY_DELAYS_MS);
  }

  /**
   * One delivery per entry and enabled endpoint subscribed to its type and registered before it
   * happened; the endpoints are read once per project of the batch (most projects have none).
   */
  async fanOut(entries: readonly FeedEntry[]): Promise<void> {
    const byProject = new Map<string, FeedEntry[]>();
    for (const entry of entries) byProject.set(entry.projectId, [...(byProject.get(entry.projectId) ?? []), entry]);
    for (const [projectId, ofProject] of byProject) {
      const endpoints = await this.webhooks.enabledOf(projectId);
      if (endpoints.length === 0) continue;
      for (const entry of ofProject) {
        for (const webhook of endpoints) {
          if (!subscribes(webhook.events, entry.type) || webhook.createdAt > entry.occurredAt) continue;
          await this.start(webhook, webhookPayload(entry));
        }
      }
    }
  }

  /** Stores the delivery (once per event and endpoint) and queues its first attempt. */
  async start(webhook: StoredWebhook, payload: WebhookPayload): Promise<StoredDelivery> {
    const now = this.clock.now().toISOString();
    const delivery: StoredDelivery = {
      _id: deliveryIdOf(webhook._id, payload.data.eventId),
      projectId: webhook.projectId,
      webhookId: webhook._id,
      eventId: payload.data.eventId,
      type: payload.type,
      body: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      lastResponseStatus: null,
      lastError: null,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.deliveries.insertNew(delivery))) return (await this.deliveries.byId(delivery._id)) ?? delivery;
    await this.enqueue(delivery._id, 1, 0);
    return delivery;
  }

  /** Runs attempt `attempt` of the delivery, unless it is settled or that attempt already ran. */
  async attempt({ deliveryId, attempt }: WebhookDeliveryJob): Promise<void> {
    const delivery = await this.deliveries.byId(deliveryId);
    if (delivery?.status !== 'pending' || delivery.attempts !== attempt - 1) return;
    const webhook = await this.webhooks.byId(delivery.webhookId);
    if (!webhook) return;
    const at = this.clock.now();
    if (!webhook.enabled) {
      await this.deliveries.failPending(webhook._id, webhook.disabledReason ?? 'the endpoint is disabled', at.toISOString());
      return;
    }
    const request = { url: webhook.url, secret: webhook.secret, messageId: delivery.eventId, body: delivery.body, at };
    const result = await inSpan(
      'analytics.deliver-webhook',
      { 'palaver.project_id': delivery.projectId, 'palaver.webhook_id': webhook._id, 'palaver.delivery_attempt': attempt },
      async (span) => {
        const started = performance.now();
        const sent = await this.sender.send(request);
        serviceMetrics().delivery(isSuccess(sent) ? 'succeeded' : 'failed', (performance.now() - started) / 1000);
        if (sent.kind === 'response') span?.setAttribute('http.response.status_code', sent.status);
        return sent;
      },
      { kind: SpanKind.CLIENT },
    );
    const now = this.clock.now();
    const decision = decideAfterAttempt({
      attempt,
      result,
      now,
      retryDelaysMs: this.retryDelaysMs,
      failingSince: webhook.failingSince,
      disableAfterMs: this.config.WEBHOOK_DISABLE_AFTER_MS,
    });
    const recorded = await this.deliveries.recordAttempt(deliveryId, attempt - 1, decision.delivery, now.toISOString());
    if (!recorded) return;
    await this.recordEndpoint(webhook, decision.endpoint, now.toISOString());
    if (decision.retryInMs !== null) await this.enqueue(deliveryId, attempt + 1, decision.retryInMs);
  }

  /** Resends now: one more attempt, whatever the delivery's state (a success is sent again). */
  async resend(delivery: StoredDelivery): Promise<StoredDelivery> {
    const reopened = (await this.deliveries.reopen(delivery._id, this.clock.now().toISOString())) ?? delivery;
    // Its own job id: a pending delivery's next attempt may be waiting under the usual one.
    const attempt = reopened.attempts + 1;
    await this.jobs.enqueue(WEBHOOK_QUEUE, WEBHOOK_DELIVERY_JOB, { deliveryId: delivery._id, attempt } satisfies WebhookDeliveryJob, {
      jobId: `${attemptJobId(delivery._id, attempt)}-now${Date.now()}`,
    });
    return reopened;
  }

  /**
   * Queues again the next attempt of pending deliveries overdue by more than `graceMs` whose job
   * is gone: an embedded queue's jobs die with its process; a crash between recording an attempt
   * and queueing the next leaves none either.
   */
  async requeueLost(graceMs: number): Promise<number> {
    const before = new Date(this.clock.now().getTime() - graceMs).toISOString();
    let requeued = 0;
    for (const delivery of await this.deliveries.overdue(before, 200)) {
      const attempt = delivery.attempts + 1;
      if (await this.jobs.exists(WEBHOOK_QUEUE, attemptJobId(delivery._id, attempt))) continue;
      await this.enqueue(delivery._id, attempt, 0);
      requeued++;
    }
    if (requeued > 0) logger.info({ requeued }, 'webhook deliveries whose attempt was lost queued again');
    return requeued;
  }

  private async recordEndpoint(
    webhook: StoredWebhook,
    endpoint: { failingSince: string | null; disabledReason: string | null },
    now: string,
  ): Promise<void> {
    if (endpoint.disabledReason !== null) {
      await this.webhooks.update(webhook.projectId, webhook._id, {
        enabled: false,
        disabledReason: endpoint.disabledReason,
        failingSince: endpoint.failingSince,
        updatedAt: now,
      });
      await this.deliveries.failPending(webhook._id, endpoint.disabledReason, now);
      logger.warn({ webhookId: webhook._id, projectId: webhook.projectId, reason: endpoint.disabledReason }, 'webhook endpoint disabled');
      return;
    }
    if (endpoint.failingSince !== webhook.failingSince) {
      await this.webhooks.update(webhook.projectId, webhook._id, { failingSince: endpoint.failingSince });
    }
  }

  private enqueue(deliveryId: string, attempt: number, delayMs: number): Promise<void> {
    return this.jobs.enqueue(WEBHOOK_QUEUE, WEBHOOK_DELIVERY_JOB, { deliveryId, attempt } satisfies WebhookDeliveryJob, {
      jobId: attemptJobId(deliveryId, attempt),
      delayMs,
    });
  }
}
