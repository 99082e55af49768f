import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/** Request headers as Node (`IncomingMessage.headers`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const headerValue = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
};

/**
 * Verifies a webhook delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, HMAC-SHA256 of `id.timestamp.body`) and returns its parsed JSON body.
 * `payload` must be the raw body as received, not a re-serialised object. `secret` is the
 * endpoint's `whsec_…` secret. Throws WebhookVerificationError on a missing header, a wrong
 * signature or a timestamp more than five minutes away (a replay).
 */
export const verifyWebhook = <T = unknown>(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): T => {
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
  const picked: Record<string, string> = {};
  for (const name of wanted) {
    const value = headerValue(headers, name);
    if (!value) throw new WebhookVerificationError(`Missing required header ${name}`);
    picked[name] = value;
  }
  return new Webhook(secret).verify(payload, picked) as T;
};
