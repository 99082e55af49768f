import { Parser } from '@asyncapi/parser';
import { CONVERSATION_EVENT_TYPES, eventSubject, FEED_TYPES } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';

describe('GET /asyncapi.json', () => {
  let e2e: E2eApp;
  let document: any;
  beforeAll(async () => {
    e2e = await startE2eApp();
    const answer = await http(`${e2e.url}/asyncapi.json`);
    expect(answer.status).toBe(200);
    document = answer.body;
  });
  afterAll(() => e2e.stop());

  it('is a valid AsyncAPI 3.0 document (@asyncapi/parser finds no error)', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(JSON.stringify(document));
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(parsed).toBeDefined();
    expect(parsed!.version()).toBe('3.0.0');
    expect(parsed!.channels().length).toBeGreaterThan(CONVERSATION_EVENT_TYPES.length);
  }, 60_000);

  it('describes every event subject with its payload schema, the durable consumers and the dead-letter subject', () => {
    for (const type of CONVERSATION_EVENT_TYPES) {
      expect(document.channels[type].address).toBe(eventSubject(type));
      const schema = document.components.schemas[type];
      expect(schema.properties.type).toMatchObject({ const: type });
      expect(schema.required).toEqual(expect.arrayContaining(['eventId', 'streamId', 'projectId', 'occurredAt', 'data']));
    }
    expect(document.components.schemas.MessageFeedbackGiven.properties.data.properties.feedback).toBeDefined();
    expect(document.operations.analyticsConsumer).toMatchObject({ action: 'receive' });
    expect(document.operations.webhooksConsumer.description).toMatch(/Pull consumer "webhooks" on PALAVER_EVENTS/);
    expect(document.channels.deadLetters.address).toBe('deadletter.PALAVER_EVENTS.{durable}');
    expect(document.channels.deadLetters.parameters.durable.enum).toEqual(['analytics', 'webhooks']);
  });

  it("describes the admin feed's SSE and a webhook message per feed type, with the Standard Webhooks headers", () => {
    expect(document.channels.adminFeed.address).toBe('/admin/v1/projects/{projectId}/events?follow=true');
    expect(Object.keys(document.channels.webhook.messages)).toHaveLength(FEED_TYPES.length + 1);
    expect(document.components.schemas.WebhookHeaders.required).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(document.components.schemas.WebhookPayload.properties.type.anyOf[0].enum).toEqual([...FEED_TYPES]);
    expect(document.components.schemas.WebhookPayload.required).toEqual(['type', 'timestamp', 'data']);
  });
});
