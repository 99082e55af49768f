import { z } from 'zod';

/** The JetStream stream the conversation events are published on (distributed mode). */
export const EVENT_STREAM_NAME = 'PALAVER_EVENTS';

/**
 * The product's durable consumers of the stream: every instance of a service shares its durable,
 * so each event is handled once per durable. An analyst's own consumer takes another name.
 */
export const DURABLE_CONSUMERS = {
  /** The analytics feed and the feedback summary. */
  analytics: 'analytics',
  /** Webhook deliveries (one per subscribed endpoint). */
  webhooks: 'webhooks',
} as const;

/** Where a durable consumer's given-up messages go on JetStream (the embedded stream uses `deadletter.<durable>`). */
export const deadLetterSubjectOf = (durable: string): string => `deadletter.${EVENT_STREAM_NAME}.${durable}`;

/** What a dead-letter subject carries: the message a durable consumer gave up on, and why. */
export const DeadLetterMessage = z.object({
  durable: z.string(),
  subject: z.string(),
  seq: z.number().int(),
  payload: z.unknown(),
  error: z.string(),
  /** How many times it was handed to the consumer. */
  deliveries: z.number().int(),
});
