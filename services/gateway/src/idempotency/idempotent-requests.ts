import { AppError } from '@palaver/contracts';
import { logger } from '@palaver/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotencyRecord, IdempotencyStore, NotedReply } from './idempotency.store';
import { idempotencyKeyOf, recordKey, requestFingerprint } from './idempotency-key';
import { type ReplayDeps, replayReply, replyInProgress } from './reply-replay';

export const REPLAYED_HEADER = 'idempotent-replayed';

interface Claim {
  key: string;
  fingerprint: string;
  /** Set once the answer is stored or the claim released. */
  settled: boolean;
  reply?: NotedReply;
}

/**
 * Requests with an `Idempotency-Key` (Stripe's semantics, docs/api.md "Idempotent requests"). The
 * first request with a key claims it (atomically, in the KV port) and runs; its answer is stored
 * for 24 hours; a repeat with the same body gets that answer again with `idempotent-replayed:
 * true` and runs nothing, one with another body a 422, one while the first runs a 409.
 *
 * `Routes` calls `begin` once the caller and the input are known (so a request refused for them
 * claims nothing), `onSend` stores what Fastify sends, and `afterHandler` settles a reply the
 * handler streamed itself (hijacked): the message named with `noteReply`, or else the claim is let go.
 */
export class IdempotentRequests {
  private readonly claims = new WeakMap<FastifyRequest, Claim>();

  constructor(
    private readonly store: IdempotencyStore,
    private readonly deps: ReplayDeps,
  ) {}

  /** True when the request has been answered here (a repeat); false when its handler is to run. */
  async begin(request: FastifyRequest, reply: FastifyReply, callerScope: string): Promise<boolean> {
    const key = idempotencyKeyOf(request);
    if (key === null) return false;
    const claim: Claim = { key: recordKey(callerScope, key), fingerprint: requestFingerprint(request), settled: false };
    const existing = await this.store.claim(claim.key, claim.fingerprint);
    if (existing === null) {
      this.claims.set(request, claim);
      return false;
    }
    if (existing.fingerprint !== claim.fingerprint) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with another request: use a new key for each request', {
        field: 'Idempotency-Key',
      });
    }
    await this.replay(existing, reply);
    return true;
  }

  /**
   * Names the stored message a streamed reply is. Called once its stream has opened, it settles
   * the key at once, so a repeat while the reply is still generated attaches to it (no 409).
   */
  noteReply(request: FastifyRequest, reply: FastifyReply, noted: NotedReply): void {
    const claim = this.claims.get(request);
    if (!claim || claim.settled) return;
    claim.reply = noted;
    if (!reply.sent) return;
    claim.settled = true;
    this.store
      .complete(claim.key, { state: 'reply', fingerprint: claim.fingerprint, reply: noted })
      .catch((err: unknown) => logger.warn({ err }, 'idempotency record not stored: the key is held until its claim expires'));
  }

  /** Fastify's onSend: stores the answer of a claimed request (or releases the claim), then lets it go out. */
  onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const claim = this.claims.get(request);
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const status = reply.statusCode;
    const body =
      typeof payload === 'string'
        ? { body: payload }
        : Buffer.isBuffer(payload)
          ? { body: payload.toString('base64'), base64: true as const }
          : payload == null
            ? { body: '' }
            : null;
    // Not waited for: the embedded store applies it in memory at once (only its fsync is pending),
    // and Redis runs it before any later command of this gateway; a repeat from elsewhere in the
    // meantime finds the claim and gets a 409 to retry, never a second run.
    const settled =
      !repeatable(status) || body === null
        ? this.store.release(claim.key)
        : this.store.complete(claim.key, {
            state: 'done',
            fingerprint: claim.fingerprint,
            status,
            contentType: contentTypeOf(reply),
            ...body,
          });
    settled.catch((err: unknown) => logger.warn({ err }, 'idempotency record not stored: the key is held until its claim expires'));
    return payload;
  };

  /** After the handler: a reply it streamed itself never passes onSend. */
  async afterHandler(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const claim = this.claims.get(request);
    if (!claim || claim.settled || !reply.sent) return;
    claim.settled = true;
    if (claim.reply) await this.store.complete(claim.key, { state: 'reply', fingerprint: claim.fingerprint, reply: claim.reply });
    else await this.store.release(claim.key);
  }

  private async replay(record: IdempotencyRecord, reply: FastifyReply): Promise<void> {
    if (record.state === 'running') throw replyInProgress();
    reply.header(REPLAYED_HEADER, 'true');
    switch (record.state) {
      case 'done':
        if (record.contentType) reply.type(record.contentType);
        await reply.status(record.status).send(record.base64 ? Buffer.from(record.body, 'base64') : record.body);
        return;
      case 'reply':
        await replayReply(this.deps, reply, record.reply);
        return;
      default: {
        const unknown: never = record;
        throw new Error(`unknown idempotency record ${JSON.stringify(unknown)}`);
      }
    }
  }
}

const contentTypeOf = (reply: FastifyReply): string | null => {
  const contentType = reply.getHeader('content-type');
  return contentType === undefined ? null : String(contentType);
};

/**
 * Answers worth repeating: not a server failure or an overload (the retry should run again), nor
 * a conflict with a request running at the same time (Stripe keeps none of these either).
 */
const repeatable = (status: number): boolean => status < 500 && status !== 429 && status !== 409;
