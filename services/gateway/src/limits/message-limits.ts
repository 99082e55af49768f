import { AppError, type ProjectRecord } from '@palaver/contracts';
import type { Clock, KeyValueStore } from '@palaver/platform';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** One message held against the project's limits: `release()` gives it back if it was refused. */
export interface Reservation {
  release(): Promise<void>;
}

const NOTHING_HELD: Reservation = { release: async () => {} };

/** Far above any project's limit: the window counts every message; the project's limit is applied here. */
const UNBOUNDED_POINTS = Number.MAX_SAFE_INTEGER;

/**
 * Per-project limits on sending messages: `messagesPerMinute` (rate-limiter-flexible, 60 s
 * windows) and `monthlyMessages` (a counter per calendar month, UTC). Both live in the KV port
 * (Redis when distributed), so every gateway instance shares them.
 *
 * Only accepted messages count: a send reserves its message first (so concurrent sends cannot
 * overshoot) and gives it back when it is refused (429 here, or 404/409/… further on). There is
 * one counter per project whatever its limit, so changing the limit mid-minute keeps the window.
 */
export class MessageLimits {
  private readonly perMinute: RateLimiterAbstract;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
  ) {
    this.perMinute = kv.rateLimiter({ keyPrefix: 'limits:rate', points: UNBOUNDED_POINTS, durationSeconds: 60 });
  }

  /** Holds one message, or throws 429 RATE_LIMIT_EXCEEDED with details.retryAfter (seconds). */
  private async reserve(project: ProjectRecord): Promise<Reservation> {
    const { messagesPerMinute, monthlyMessages } = project.limits;
    // Both counters at once (one round trip to Redis, not two); the minute's refusal wins when both refuse.
    const taken = await Promise.allSettled([
      ...(messagesPerMinute !== null ? [this.takeMinute(project.id, messagesPerMinute)] : []),
      ...(monthlyMessages !== null ? [this.takeMonth(project.id, monthlyMessages)] : []),
    ]);
    const held = taken.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const releaseAll = async () => {
      await Promise.all(held.map((r) => r.release()));
    };
    const refused = taken.find((result) => result.status === 'rejected');
    if (refused) {
      await releaseAll();
      throw refused.reason;
    }
    return held.length === 0 ? NOTHING_HELD : { release: once(releaseAll) };
  }

  /** Runs `send` holding one message; a refused send (it throws) does not count. */
  async within<T>(project: ProjectRecord, send: () => Promise<T>): Promise<T> {
    const reservation = await this.reserve(project);
    try {
      return await send();
    } catch (err) {
      await reservation.release();
      throw err;
    }
  }

  private async takeMinute(projectId: string, limit: number): Promise<Reservation> {
    const res = await this.perMinute.consume(projectId, 1);
    const release = once(async () => {
      await this.perMinute.reward(projectId, 1);
    });
    if (res.consumedPoints > limit) {
      await release();
      throw new AppError('RATE_LIMIT_EXCEEDED', `the project's messagesPerMinute limit (${limit}) is reached`, {
        retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        limit: 'messagesPerMinute',
      });
    }
    return { release };
  }

  private async takeMonth(projectId: string, limit: number): Promise<Reservation> {
    const now = this.clock.now();
    const untilNextMonth = secondsUntilNextMonth(now);
    const key = `limits:month:${now.toISOString().slice(0, 7)}:${projectId}`;
    const count = await this.kv.increment(key, untilNextMonth);
    const release = once(async () => {
      await this.kv.increment(key, untilNextMonth, -1);
    });
    if (count > limit) {
      await release();
      throw new AppError('RATE_LIMIT_EXCEEDED', `the project's monthlyMessages limit (${limit}) is reached`, {
        retryAfter: untilNextMonth,
        limit: 'monthlyMessages',
      });
    }
    return { release };
  }
}

const once = (fn: () => Promise<void>): (() => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
};

const secondsUntilNextMonth = (now: Date): number => {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
};
