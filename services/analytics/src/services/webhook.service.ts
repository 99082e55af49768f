import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  type DeliveryStatus,
  FEED_TYPES,
  type NewAuditEntry,
  type UpdateWebhookBody,
  WEBHOOK_TEST_TYPE,
  WEBHOOKS_PER_PROJECT,
  type Webhook,
  type WebhookBody,
  type WebhookDelivery,
  type WebhookWithSecret,
} from '@palaver/contracts';
import { AuditOutbox, type Clock, OutboundFetchError, type OutboundGuard, OutboundRefusedError, Ports } from '@palaver/platform';
import { newWebhookSecret, unknownEventTypes, webhookPayload } from '../domain/webhook-endpoint';
import { WEBHOOK_OUTBOUND_GUARD } from '../repositories/outbound-guard.provider';
import { type StoredWebhook, WebhookRepository } from '../repositories/webhook.repository';
import { type StoredDelivery, WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';

/** Webhook endpoints as admins manage them: registered, listed, changed, removed, their secret rotated, tested. */
@Injectable()
export class WebhookService {
  constructor(
    @Inject(WebhookRepository) private readonly webhooks: WebhookRepository,
    @Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(WebhookDeliveryService) private readonly delivery: WebhookDeliveryService,
    @Inject(WEBHOOK_OUTBOUND_GUARD) private readonly guard: OutboundGuard,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(AuditOutbox) private readonly audit: AuditOutbox,
  ) {}

  async create(projectId: string, body: WebhookBody, actor: Actor): Promise<WebhookWithSecret> {
    checkEvents(body.events);
    await this.checkUrl(body.url);
    if ((await this.webhooks.count(projectId)) >= WEBHOOKS_PER_PROJECT) {
      throw new AppError('VALIDATION_ERROR', `a project has at most ${WEBHOOKS_PER_PROJECT} webhook endpoints`, {
        limit: WEBHOOKS_PER_PROJECT,
      });
    }
    const now = this.now();
    const webhook: StoredWebhook = {
      _id: randomUUID(),
      projectId,
      url: new URL(body.url).href,
      events: [...new Set(body.events)],
      description: body.description ?? null,
      enabled: body.enabled ?? true,
      disabledReason: null,
      failingSince: null,
      secret: newWebhookSecret(),
      createdAt: now,
      updatedAt: now,
    };
    // The URL may carry a token in its query: the entry names the events, not the address.
    await this.audit.around(
      entry(projectId, actor, 'webhook.created', webhook._id, { events: webhook.events, enabled: webhook.enabled }),
      () => this.webhooks.insert(webhook),
    );
    return { ...view(webhook), secret: webhook.secret };
  }

  async list(projectId: string) {
    return { object: 'list' as const, data: (await this.webhooks.list(projectId)).map(view) };
  }

  async get(projectId: string, webhookId: string): Promise<Webhook> {
    return view(await this.found(projectId, webhookId));
  }

  async update(projectId: string, webhookId: string, patch: UpdateWebhookBody, actor: Actor): Promise<Webhook> {
    await this.found(projectId, webhookId);
    const set: Partial<StoredWebhook> = { updatedAt: this.now() };
    if (patch.url !== undefined) {
      await this.checkUrl(patch.url);
      set.url = new URL(patch.url).href;
    }
    if (patch.events !== undefined) {
      checkEvents(patch.events);
      set.events = [...new Set(patch.events)];
    }
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.enabled !== undefined) {
      set.enabled = patch.enabled;
      // Enabled again (or disabled by an admin): the product's reason and failing streak are over.
      set.disabledReason = null;
      set.failingSince = null;
    }
    const changes = {
      fields: Object.keys(patch).filter((field) => patch[field as keyof UpdateWebhookBody] !== undefined),
      ...(set.events !== undefined ? { events: set.events } : {}),
      ...(set.enabled !== undefined ? { enabled: set.enabled } : {}),
    };
    const updated = await this.audit.around(entry(projectId, actor, 'webhook.updated', webhookId, changes), async () => {
      const stored = await this.webhooks.update(projectId, webhookId, set);
      if (!stored) throw webhookNotFound(webhookId);
      return stored;
    });
    return view(updated);
  }

  async delete(projectId: string, webhookId: string, actor: Actor): Promise<{ ok: true }> {
    await this.audit.around(entry(projectId, actor, 'webhook.deleted', webhookId), async () => {
      if (!(await this.webhooks.delete(projectId, webhookId))) throw webhookNotFound(webhookId);
      await this.deliveries.deleteOf(webhookId);
    });
    return { ok: true };
  }

  /** A new secret at once: deliveries from now on (retries included) are signed with it. */
  async rotateSecret(projectId: string, webhookId: string, actor: Actor): Promise<WebhookWithSecret> {
    await this.found(projectId, webhookId);
    const secret = newWebhookSecret();
    const updated = await this.audit.around(entry(projectId, actor, 'webhook.secret-rotated', webhookId), async () => {
      const stored = await this.webhooks.update(projectId, webhookId, { secret, updatedAt: this.now() });
      if (!stored) throw webhookNotFound(webhookId);
      return stored;
    });
    return { ...view(updated), secret };
  }

  /** Delivers a `webhook.test` event to the endpoint, with the retries of any other. */
  async sendTest(projectId: string, webhookId: string): Promise<WebhookDelivery> {
    const webhook = await this.found(projectId, webhookId);
    const eventId = randomUUID();
    const started = await this.delivery.start(
      webhook,
      webhookPayload({
        eventId,
        projectId,
        conversationId: randomUUID(),
        type: WEBHOOK_TEST_TYPE,
        category: 'webhook',
        occurredAt: this.now(),
        data: { message: 'A test event sent from the admin API or the dashboard.', feedTypes: [...FEED_TYPES] },
      }),
    );
    return deliveryView(started);
  }

  async listDeliveries(projectId: string, webhookId: string, status: DeliveryStatus | undefined, limit: number, offset: number) {
    await this.found(projectId, webhookId);
    const { total, data } = await this.deliveries.list(webhookId, status, limit, offset);
    return { object: 'list' as const, total, limit, offset, data: data.map(deliveryView) };
  }

  async retryDelivery(projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const webhook = await this.found(projectId, webhookId);
    const delivery = await this.deliveries.find(webhookId, deliveryId);
    if (!delivery) throw new AppError('DELIVERY_NOT_FOUND', 'no such delivery of this webhook', { deliveryId });
    if (!webhook.enabled) {
      throw new AppError('CONFLICT', 'the endpoint is disabled: enable it (PATCH enabled: true) before resending', { webhookId });
    }
    return deliveryView(await this.delivery.resend(delivery));
  }

  /** A URL the product may not deliver to is refused when it is registered: 422 with the reason. */
  private async checkUrl(url: string): Promise<void> {
    try {
      await this.guard.checkUrl(url);
    } catch (err) {
      if (err instanceof OutboundRefusedError || err instanceof OutboundFetchError) {
        throw new AppError('VALIDATION_ERROR', `webhooks cannot be delivered to this URL: ${err.message}`, {
          field: 'url',
          reason: err.message,
        });
      }
      throw err;
    }
  }

  private async found(projectId: string, webhookId: string): Promise<StoredWebhook> {
    const webhook = await this.webhooks.find(projectId, webhookId);
    if (!webhook) throw webhookNotFound(webhookId);
    return webhook;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

const entry = (projectId: string, actor: Actor, action: string, webhookId: string, changes?: Record<string, unknown>): NewAuditEntry => ({
  projectId,
  actor,
  action,
  target: { type: 'webhook', id: webhookId },
  ...(changes ? { changes } : {}),
});

const checkEvents = (events: readonly string[]): void => {
  const unknown = unknownEventTypes(events);
  if (unknown.length === 0) return;
  throw new AppError('VALIDATION_ERROR', `unknown event type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
    field: 'events',
    unknown,
    allowed: ['*', ...FEED_TYPES],
  });
};

const webhookNotFound = (webhookId: string): AppError =>
  new AppError('WEBHOOK_NOT_FOUND', 'no such webhook in this project', { webhookId });

const view = (webhook: StoredWebhook): Webhook => ({
  object: 'webhook',
  id: webhook._id,
  projectId: webhook.projectId,
  url: webhook.url,
  events: webhook.events,
  description: webhook.description,
  enabled: webhook.enabled,
  disabledReason: webhook.disabledReason,
  failingSince: webhook.failingSince,
  createdAt: webhook.createdAt,
  updatedAt: webhook.updatedAt,
});

const deliveryView = (delivery: StoredDelivery): WebhookDelivery => ({
  object: 'webhook_delivery',
  id: delivery._id,
  webhookId: delivery.webhookId,
  eventId: delivery.eventId,
  type: delivery.type,
  status: delivery.status,
  attempts: delivery.attempts,
  lastResponseStatus: delivery.lastResponseStatus,
  lastError: delivery.lastError,
  nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
  createdAt: delivery.createdAt,
  updatedAt: delivery.updatedAt,
});
