import {
  ALL_CONVERSATION_EVENTS,
  AnalyticsEvent,
  CONVERSATION_EVENT_TYPES,
  ConversationEventData,
  DeadLetterMessage,
  DURABLE_CONSUMERS,
  deadLetterSubjectOf,
  EVENT_STREAM_NAME,
  eventSubject,
  FEED_TYPE_DESCRIPTIONS,
  FEED_TYPES,
  FeedEntry,
  StoredEventEnvelope,
  WEBHOOK_TEST_TYPE,
  WebhookPayload,
} from '@palaver/contracts';
import { DEFAULT_MAX_DELIVERIES } from '@palaver/platform';
import { z } from 'zod';

/** A zod schema as the JSON Schema (draft 7) AsyncAPI 3.0 payloads take. */
const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

const ref = (path: string) => ({ $ref: path });

/** A channel's messages, each the component message of the same name. */
const componentMessages = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, ref(`#/components/messages/${name}`)]));

/** The operation that sends (or receives) the named messages of a channel. */
const operationOn = (
  channel: string,
  messages: readonly string[],
  operation: { action: 'send' | 'receive'; title: string; description?: string },
) => ({
  ...operation,
  channel: ref(`#/channels/${channel}`),
  messages: messages.map((name) => ref(`#/channels/${channel}/messages/${name}`)),
});

const WEBHOOK_HEADERS = z.object({
  'webhook-id': z.string().meta({ description: "The event's id: the same on every attempt of one delivery (deduplicate on it)" }),
  'webhook-timestamp': z.string().meta({ description: 'Unix seconds of this attempt' }),
  'webhook-signature': z
    .string()
    .meta({ description: 'v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the endpoint secret (whsec_…)>, Standard Webhooks' }),
});

/**
 * The AsyncAPI 3.0 document of what the product publishes: the conversation events on the
 * JetStream stream (one channel per subject, the durable consumers, the dead letters), the admin
 * feed's server-sent events, and the webhook deliveries, all from the zod contracts.
 */
export const asyncApiDocument = (): object => {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};

  for (const type of CONVERSATION_EVENT_TYPES) {
    const payload = StoredEventEnvelope.extend({ type: z.literal(type), data: ConversationEventData[type] });
    schemas[type] = jsonSchema(payload);
    messages[type] = {
      name: type,
      title: type,
      contentType: 'application/json',
      summary: `The stored ${type} event, as the conversation service's outbox publishes it`,
      description: 'Published with the Nats-Msg-Id header set to the eventId (JetStream deduplicates on it).',
      payload: ref(`#/components/schemas/${type}`),
    };
    channels[type] = {
      address: eventSubject(type),
      title: type,
      servers: [ref('#/servers/nats')],
      messages: componentMessages([type]),
    };
    operations[`publish${type}`] = operationOn(type, [type], { action: 'send', title: `conversation publishes ${type}` });
  }

  channels.conversationEvents = {
    address: ALL_CONVERSATION_EVENTS,
    title: 'Every conversation event',
    description: `The filter the durable consumers take: every subject of the ${EVENT_STREAM_NAME} stream under conversation.evt.`,
    servers: [ref('#/servers/nats')],
    messages: componentMessages(CONVERSATION_EVENT_TYPES),
  };
  for (const [key, durable] of Object.entries(DURABLE_CONSUMERS)) {
    operations[`${key}Consumer`] = operationOn('conversationEvents', CONVERSATION_EVENT_TYPES, {
      action: 'receive',
      title: `durable consumer "${durable}"`,
      description: `Pull consumer "${durable}" on ${EVENT_STREAM_NAME}, explicit acks, at least once: a message whose handling fails is redelivered, up to ${DEFAULT_MAX_DELIVERIES} tries in all, then published on ${deadLetterSubjectOf(durable)}.`,
    });
  }

  schemas.DeadLetter = jsonSchema(DeadLetterMessage);
  messages.DeadLetter = {
    name: 'DeadLetter',
    contentType: 'application/json',
    summary: 'A message a durable consumer gave up on, and why',
    payload: ref('#/components/schemas/DeadLetter'),
  };
  channels.deadLetters = {
    address: deadLetterSubjectOf('{durable}'),
    title: 'Dead letters',
    servers: [ref('#/servers/nats')],
    parameters: { durable: { enum: Object.values(DURABLE_CONSUMERS), description: 'The durable consumer that gave the message up' } },
    messages: componentMessages(['DeadLetter']),
  };
  operations.deadLetter = operationOn('deadLetters', ['DeadLetter'], {
    action: 'send',
    title: 'a durable consumer dead-letters a message',
  });

  schemas.FeedEntry = jsonSchema(FeedEntry);
  schemas.AnalyticsEvent = jsonSchema(AnalyticsEvent);
  messages.FeedEvent = {
    name: 'FeedEvent',
    contentType: 'application/json',
    summary: 'One feed event, the data: line of a server-sent event whose id: is its cursor (send it back as Last-Event-ID to resume)',
    description: `Types: ${FEED_TYPES.map((t) => `${t} (${FEED_TYPE_DESCRIPTIONS[t]})`).join('; ')}`,
    payload: ref('#/components/schemas/AnalyticsEvent'),
  };
  channels.adminFeed = {
    address: '/admin/v1/projects/{projectId}/events?follow=true',
    title: "The admin feed's live tail (text/event-stream)",
    description: 'GET with the admin token; type= filters by type or category, after= starts after a cursor.',
    servers: [ref('#/servers/gateway')],
    parameters: { projectId: { description: 'The project (uuid)' } },
    messages: componentMessages(['FeedEvent']),
  };
  operations.followFeed = operationOn('adminFeed', ['FeedEvent'], { action: 'send', title: 'the gateway streams the feed' });

  schemas.WebhookPayload = jsonSchema(WebhookPayload);
  schemas.WebhookHeaders = jsonSchema(WEBHOOK_HEADERS);
  const webhookMessages: Record<string, unknown> = {};
  for (const type of [...FEED_TYPES, WEBHOOK_TEST_TYPE]) {
    const name = `webhook:${type}`;
    messages[name.replace(':', '_').replace('.', '_')] = {
      name,
      title: `Webhook ${type}`,
      contentType: 'application/json',
      summary:
        type === WEBHOOK_TEST_TYPE
          ? 'The test event ("send test event")'
          : FEED_TYPE_DESCRIPTIONS[type as keyof typeof FEED_TYPE_DESCRIPTIONS],
      headers: ref('#/components/schemas/WebhookHeaders'),
      payload: { allOf: [ref('#/components/schemas/WebhookPayload'), { type: 'object', properties: { type: { const: type } } }] },
    };
    webhookMessages[type.replace('.', '_')] = ref(`#/components/messages/${name.replace(':', '_').replace('.', '_')}`);
  }
  channels.webhook = {
    address: '{endpointUrl}',
    title: 'A webhook endpoint',
    description:
      'POSTed to each endpoint registered for the type (POST /admin/v1/projects/{projectId}/webhooks). A 2xx within 10 s settles the delivery; anything else is retried (by default after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), redirects are not followed, and an endpoint failing for days is disabled. At least once; no order is promised, not even within a project or a conversation.',
    servers: [ref('#/servers/receiver')],
    parameters: { endpointUrl: { description: "The endpoint's URL, as registered" } },
    messages: webhookMessages,
  };
  operations.deliverWebhook = operationOn('webhook', Object.keys(webhookMessages), {
    action: 'send',
    title: 'analytics delivers a signed webhook',
  });

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Palaver events',
      version: '1',
      description:
        "The domain events on the durable stream, the admin feed's live tail and the webhook deliveries. See docs/events.md for reading them.",
    },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: 'localhost:4222',
        protocol: 'nats',
        description: `The NATS server of NATS_URL, JetStream stream ${EVENT_STREAM_NAME} (distributed mode)`,
      },
      gateway: { host: 'localhost:3000', protocol: 'http', description: "The product's gateway (PORT), admin API" },
      receiver: {
        host: '{host}',
        protocol: 'https',
        description: "An analyst's webhook endpoint",
        variables: { host: { description: 'Its host' } },
      },
    },
    channels,
    operations,
    components: { schemas, messages },
  };
};
