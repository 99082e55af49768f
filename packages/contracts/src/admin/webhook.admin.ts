import { z } from 'zod';
import { MAX_URL, Timestamp, Uuid } from '../common';
import { FEED_TYPES, FeedEntry, FeedType } from '../events/feed.types';

/** Endpoints a project may register. */
export const WEBHOOKS_PER_PROJECT = 50;

const HttpUrl = z
  .url()
  .max(MAX_URL)
  .refine((url) => /^https?:\/\//i.test(url), { message: 'must be an http or https URL' });

/**
 * Feed types the endpoint receives (FEED_TYPES), or `["*"]` for every type (those added later
 * too). Any string passes here so that an unknown type is the service's 422, naming the known ones.
 */
export const WebhookEvents = z
  .array(
    z
      .string()
      .min(1)
      .max(100)
      .meta({ description: `A feed type (${FEED_TYPES.join(', ')}) or "*"` }),
  )
  .min(1)
  .max(50)
  .refine((events) => !events.includes('*') || events.length === 1, { message: '"*" stands alone' });
export type WebhookEvents = z.infer<typeof WebhookEvents>;

export const WebhookBody = z.object({
  url: HttpUrl,
  events: WebhookEvents,
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

/** Enabling an endpoint that was disabled for failing clears the reason and starts it afresh. */
export const UpdateWebhookBody = z.object({
  url: HttpUrl.optional(),
  events: WebhookEvents.optional(),
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const Webhook = z.object({
  object: z.literal('webhook'),
  id: Uuid,
  projectId: Uuid,
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why the product disabled the endpoint (failing for too long); null when an admin did or it is enabled. */
  disabledReason: z.string().nullable(),
  /** Since when every attempt to it has failed; null after a success. */
  failingSince: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Webhook = z.infer<typeof Webhook>;

/** The endpoint with its signing secret: answered only when it is made and when the secret is rotated. */
export const WebhookWithSecret = Webhook.extend({
  /** `whsec_` and the base64 key (Standard Webhooks). */
  secret: z.string().startsWith('whsec_'),
});
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const WebhookDelivery = z.object({
  object: z.literal('webhook_delivery'),
  id: Uuid,
  webhookId: Uuid,
  /** The event delivered; also the `webhook-id` header of every attempt. */
  eventId: Uuid,
  type: z.string(),
  status: DeliveryStatus,
  attempts: z.number().int(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** When the next attempt runs (pending only). */
  nextAttemptAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** The test event's type: sent by "send test event", never by the feed, always delivered. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/** The body of every delivery (Standard Webhooks' `{ type, timestamp, data }`); `data` is the feed entry. */
export const WebhookPayload = z.object({
  type: z.union([FeedType, z.literal(WEBHOOK_TEST_TYPE)]),
  /** When the event happened (the feed entry's occurredAt). */
  timestamp: Timestamp,
  data: FeedEntry.extend({ type: z.union([FeedType, z.literal(WEBHOOK_TEST_TYPE)]) }),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** One attempt to deliver: the analytics service's job on the `webhooks` queue. */
export const WEBHOOK_QUEUE = 'webhooks';
export const WEBHOOK_DELIVERY_JOB = 'deliver-webhook';
export const WebhookDeliveryJob = z.object({ deliveryId: Uuid, attempt: z.number().int().min(1) });
export type WebhookDeliveryJob = z.infer<typeof WebhookDeliveryJob>;
