import { AppError, type ProjectRecord } from '@palaver/contracts';
import type { Clock, KeyValueStore } from '@palaver/platform';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

const MONTH_SECONDS = 32 * 24 * 3600;

/**
 * Per-project limits on sending messages: `messagesPerMinute` (a rolling 60 s window) and
 * `monthlyMessages` (a calendar month, UTC). Counters live in the KV port (Redis when
 * distributed), so every gateway instance shares them.
 */
export class MessageLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /** Counts one message, or throws 429 RATE_LIMIT_EXCEEDED with details.retryAfter (seconds). */
  async consume(project: ProjectRecord): Promise<void> {
    const { messagesPerMinute, monthlyMessages } = project.limits;
    if (messagesPerMinute !== null) {
      await this.take(this.limiter('rate', messagesPerMinute, 60), project.id, 'messagesPerMinute', messagesPerMinute);
    }
    if (monthlyMessages !== null) {
      const now = this.clock.now();
      const month = now.toISOString().slice(0, 7);
      await this.take(
        this.limiter(`quota:${month}`, monthlyMessages, MONTH_SECONDS),
        project.id,
        'monthlyMessages',
        monthlyMessages,
        secondsUntilNextMonth(now),
      );
    }
  }

  private limiter(prefix: string, points: number, durationSeconds: number): RateLimiterAbstract {
    const key = `${prefix}:${points}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = this.kv.rateLimiter({ keyPrefix: `limits:${prefix}`, points, durationSeconds });
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  private async take(
    limiter: RateLimiterAbstract,
    projectId: string,
    limit: string,
    points: number,
    retryAfterSeconds?: number,
  ): Promise<void> {
    try {
      await limiter.consume(projectId, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = retryAfterSeconds ?? Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError('RATE_LIMIT_EXCEEDED', `the project's ${limit} limit (${points}) is reached`, {
        retryAfter,
        limit,
      });
    }
  }
}

const secondsUntilNextMonth = (now: Date): number => {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
};
