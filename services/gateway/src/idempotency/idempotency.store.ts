import type { KeyValueStore } from '@palaver/platform';

/** A reply streamed to the client (SSE or plain text): a repeat reads the stored message. */
export interface NotedReply {
  format: 'ui-message-stream' | 'plain-text';
  projectId: string;
  visitorId: string;
  conversationId: string;
  messageId: string;
}

export type IdempotencyRecord =
  /** The first request is still being handled. */
  | { state: 'running'; fingerprint: string }
  /** Its answer, as sent: status, media type and body (base64 when it was bytes). */
  | { state: 'done'; fingerprint: string; status: number; contentType: string | null; body: string; base64?: true }
  /** Its answer is a reply streamed to the client: which message it is. */
  | { state: 'reply'; fingerprint: string; reply: NotedReply };

/** How long an answer is kept for repeats (Stripe's 24 hours). */
export const ANSWER_TTL_SECONDS = 24 * 3600;

/** The records of idempotent requests in the KV port (Redis when distributed), each with its expiry. */
export class IdempotencyStore {
  constructor(
    private readonly kv: KeyValueStore,
    /** How long a claim holds when its gateway dies before answering (then the key may be used again). */
    private readonly claimTtlSeconds: number,
  ) {}

  /** Claims the key for a first request; the record already there when another did. */
  async claim(key: string, fingerprint: string): Promise<IdempotencyRecord | null> {
    const running: IdempotencyRecord = { state: 'running', fingerprint };
    if (await this.kv.setIfAbsent(key, JSON.stringify(running), this.claimTtlSeconds)) return null;
    const existing = await this.kv.get(key);
    // Released or expired between the two calls: try once more.
    if (existing === null) return (await this.kv.setIfAbsent(key, JSON.stringify(running), this.claimTtlSeconds)) ? null : running;
    return JSON.parse(existing) as IdempotencyRecord;
  }

  async complete(key: string, record: IdempotencyRecord): Promise<void> {
    await this.kv.set(key, JSON.stringify(record), ANSWER_TTL_SECONDS);
  }

  /** Forgets the claim: the request's outcome is not one to repeat (a 5xx, a 429), so a retry runs again. */
  async release(key: string): Promise<void> {
    await this.kv.del(key);
  }
}
