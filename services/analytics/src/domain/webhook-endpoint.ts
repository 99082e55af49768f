import { createHash, randomBytes } from 'node:crypto';
import { FEED_TYPES, type FeedEntry, WEBHOOK_TEST_TYPE, type WebhookPayload } from '@palaver/contracts';

/** A new signing secret, as Standard Webhooks write it: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The subscribed names that are neither a feed type nor `*` (an endpoint naming one is refused). */
export const unknownEventTypes = (events: readonly string[]): string[] =>
  events.filter((event) => event !== '*' && !(FEED_TYPES as readonly string[]).includes(event));

/** Whether an endpoint subscribed to `events` receives `type` (the test event reaches every endpoint). */
export const subscribes = (events: readonly string[], type: string): boolean =>
  type === WEBHOOK_TEST_TYPE || events.includes('*') || events.includes(type);

/** The body of every delivery of a feed entry. */
export const webhookPayload = (entry: FeedEntry | WebhookPayload['data']): WebhookPayload => ({
  type: entry.type,
  timestamp: entry.occurredAt,
  data: entry,
});

/**
 * The delivery of one event to one endpoint: the same id whenever the event is read again from
 * the stream, so a redelivered event makes no second delivery (a name-based uuid, version 8).
 */
export const deliveryIdOf = (webhookId: string, eventId: string): string => {
  const hex = createHash('sha256').update(`${webhookId}/${eventId}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
