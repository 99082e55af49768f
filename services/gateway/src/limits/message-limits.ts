import { AppError, type ProjectRecord } from '@palaver/contracts';
import type { Clock, KeyValueStore } from '@palaver/platform';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Per-project limits on sending messages: `messagesPerMinute` (rate-limiter-flexible, 60 s
 * windows) and `monthlyMessages` (a counter per calendar month, UTC). Both live in the KV port
 * (Redis when distributed), so every gateway instance shares them.
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
    if (monthlyMessages !== null) await this.countMonthly(project.id, monthlyMessages);
  }

  private async countMonthly(projectId: string, monthlyMessages: number): Promise<void> {
    const now = this.clock.now();
    const untilNextMonth = secondsUntilNextMonth(now);
    const count = await this.kv.increment(`limits:month:${now.toISOString().slice(0, 7)}:${projectId}`, untilNextMonth);
    if (count > monthlyMessages) {
      throw new AppError('RATE_LIMIT_EXCEEDED', `the project's monthlyMessages limit (${monthlyMessages}) is reached`, {
        retryAfter: untilNextMonth,
        limit: 'monthlyMessages',
      });
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

  private async take(limiter: RateLimiterAbstract, projectId: string, limit: string, points: number): Promise<void> {
    try {
      await limiter.consume(projectId, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
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
