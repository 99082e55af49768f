import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhook';

// A Standard Webhooks secret: `whsec_` then the base64 of the key.
const secret = `whsec_${Buffer.from('palaver-webhook-test-key-32bytes').toString('base64')}`;
const body = JSON.stringify({ type: 'conversation.started', data: { conversationId: 'c-1' } });

const signed = (payload: string, at = new Date(), id = 'msg_1') => ({
  'webhook-id': id,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': new Webhook(secret).sign(id, at, payload),
});

describe('verifyWebhook', () => {
  it('returns the parsed body of a delivery signed with the secret', () => {
    expect(verifyWebhook(body, signed(body), secret)).toEqual(JSON.parse(body));
  });

  it('reads the headers from a fetch Headers, Node header objects in any case, and a Uint8Array body', () => {
    const headers = signed(body);
    expect(verifyWebhook(body, new Headers(headers), secret)).toEqual(JSON.parse(body));
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifyWebhook(new TextEncoder().encode(body), upper, secret)).toEqual(JSON.parse(body));
  });

  it('refuses a changed body, another secret, a missing header and an old timestamp', () => {
    const headers = signed(body);
    expect(() => verifyWebhook(body.replace('c-1', 'c-2'), headers, secret)).toThrow(WebhookVerificationError);
    const other = `whsec_${Buffer.from('another-key-of-thirty-two-bytes!').toString('base64')}`;
    expect(() => verifyWebhook(body, headers, other)).toThrow(WebhookVerificationError);
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect(() => verifyWebhook(body, unsigned, secret)).toThrow(/webhook-signature/);
    const stale = signed(body, new Date(Date.now() - 10 * 60_000));
    expect(() => verifyWebhook(body, stale, secret)).toThrow(/too old/i);
  });
});
