import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@palaver/contracts';
import { type KeyValueStore, logger } from '@palaver/platform';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { bearerOf } from './bearer';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Wrong admin tokens one address may send per window before it is refused (docs/admin-api.md). */
export const ADMIN_AUTH_THROTTLE = { failures: 10, windowSeconds: 300 } as const;

/** Addresses this gateway remembers as refused; an attacker with more only reaches the shared counter. */
const REMEMBERED_ADDRESSES = 10_000;

/**
 * The admin API's guard: the bearer must equal ADMIN_TOKEN (compared in constant time). Wrong
 * tokens are counted per client address in the KV port (Redis when distributed, so every gateway
 * shares the count); past `failures` in a window the address is answered 429 with Retry-After
 * until the window ends, whatever token it sends, so the answers tell a guesser nothing.
 *
 * A right token costs no round trip: refused addresses are also remembered here, and only a
 * wrong token asks the shared counter (which also teaches this gateway of a refusal counted by
 * another one). A missing or malformed header is a 401 that is not counted: it guesses nothing.
 */
export class AdminGuard {
  private readonly expected: Buffer;
  private readonly failures: RateLimiterAbstract;
  /** Address -> when its refusal ends (epoch ms). */
  private readonly refused = new LRUCache<string, number>({ max: REMEMBERED_ADDRESSES });

  constructor(adminToken: string, kv: KeyValueStore) {
    this.expected = digest(adminToken);
    this.failures = kv.rateLimiter({
      keyPrefix: 'admin-auth:failed',
      points: ADMIN_AUTH_THROTTLE.failures,
      durationSeconds: ADMIN_AUTH_THROTTLE.windowSeconds,
    });
  }

  /**
   * Undefined for the admin token (its path makes no promise); otherwise a promise rejected with
   * 401 UNAUTHORIZED or 429 RATE_LIMIT_EXCEEDED.
   */
  check(request: FastifyRequest): Promise<never> | undefined {
    const address = request.ip;
    const until = this.refused.get(address);
    if (until !== undefined) {
      const left = until - Date.now();
      if (left > 0) return Promise.reject(tooMany(left));
      this.refused.delete(address);
    }
    let given: string;
    try {
      given = bearerOf(request);
    } catch (err) {
      return Promise.reject(err);
    }
    if (timingSafeEqual(digest(given), this.expected)) return undefined;
    return this.countFailure(address);
  }

  private async countFailure(address: string): Promise<never> {
    try {
      await this.failures.consume(address, 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        // The counter's store is down: the token is refused all the same.
        logger.warn({ err }, 'admin authentication throttle unavailable');
        throw invalidToken();
      }
      this.refused.set(address, Date.now() + err.msBeforeNext);
      throw tooMany(err.msBeforeNext);
    }
    throw invalidToken();
  }
}

const invalidToken = (): AppError => new AppError('UNAUTHORIZED', 'invalid admin token');

const tooMany = (ms: number): AppError =>
  new AppError('RATE_LIMIT_EXCEEDED', 'too many wrong admin tokens from this address: retry later', {
    retryAfter: Math.max(1, Math.ceil(ms / 1000)),
  });
