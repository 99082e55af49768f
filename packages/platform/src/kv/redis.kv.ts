import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRedis } from 'rate-limiter-flexible';
import { registerDependency } from '../health/dependencies';
import { logger } from '../logger/logger';
import { FAIL_FAST_REDIS_OPTIONS, redisFailure, redisReadiness, runFailFast } from '../redis/redis-availability';
import { coalesceRedisWrites } from '../redis/redis-write-coalescing';
import type { KeyValueStore } from './kv.port';

export interface RedisKeyValueStoreOptions {
  /** Put before every key, the rate limiters' included (e.g. `palaver:`). */
  keyPrefix?: string;
}

/**
 * Key-value store and rate limiters on Redis. Expiries are set in milliseconds (PX / PEXPIRE).
 * While Redis is down every call fails at once with SERVICE_UNAVAILABLE (see FAIL_FAST_REDIS_OPTIONS):
 * sessions and rate limits are on the path of a visitor waiting for an answer.
 */
export class RedisKeyValueStore implements KeyValueStore {
  private readonly redis: Redis;
  private readonly unregister: () => void;
  private readonly ready: () => Promise<void> | undefined;

  constructor(url: string, options: RedisKeyValueStoreOptions = {}) {
    // Sessions and rate limits: a command or two for every init, read and message (see coalesceRedisWrites).
    this.redis = coalesceRedisWrites(new Redis(url, { keyPrefix: options.keyPrefix ?? '', ...FAIL_FAST_REDIS_OPTIONS }));
    this.redis.on('error', (err) => logger.warn({ err }, 'redis key-value connection error'));
    this.unregister = registerDependency('redis', () => this.redis.status === 'ready');
    this.ready = redisReadiness(this.redis);
  }

  get(key: string): Promise<string | null> {
    return this.run(() => this.redis.get(key));
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    if (ttlSeconds === undefined) await this.run(() => this.redis.set(key, value));
    else {
      const ms = toMs(ttlSeconds);
      await this.run(() => this.redis.set(key, value, 'PX', ms));
    }
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const ms = toMs(ttlSeconds);
    return (await this.run(() => this.redis.set(key, value, 'PX', ms, 'NX'))) === 'OK';
  }

  async expire(key: string, ttlSeconds: number): Promise<boolean> {
    const ms = toMs(ttlSeconds);
    return (await this.run(() => this.redis.pexpire(key, ms))) === 1;
  }

  async del(key: string): Promise<void> {
    await this.run(() => this.redis.del(key));
  }

  async increment(key: string, ttlSeconds: number, by = 1): Promise<number> {
    const ms = toMs(ttlSeconds);
    const results = await this.run(() => this.redis.multi().incrby(key, by).pexpire(key, ms, 'NX').exec());
    const [error, count] = results?.[0] ?? [new Error('increment: no reply')];
    if (error) throw error;
    return Number(count);
  }

  rateLimiter(options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterAbstract {
    return new FailFastRateLimiter(
      {
        storeClient: this.redis,
        keyPrefix: options.keyPrefix,
        points: options.points,
        duration: options.durationSeconds,
      },
      this.ready,
    );
  }

  /** Refused at once unless the connection is ready; a lost connection's error becomes SERVICE_UNAVAILABLE. */
  private run<T>(command: () => Promise<T>): Promise<T> {
    return runFailFast(this.ready, command);
  }

  async close(): Promise<void> {
    this.unregister();
    if (this.redis.status === 'end') return;
    await this.redis.quit();
  }
}

/**
 * RateLimiterRedis whose calls fail as the store's do: SERVICE_UNAVAILABLE while Redis is down (a
 * limit refusal, a RateLimiterRes rather than an Error, is passed on as it is).
 */
class FailFastRateLimiter extends RateLimiterRedis {
  constructor(
    options: ConstructorParameters<typeof RateLimiterRedis>[0],
    private readonly ready: () => Promise<void> | undefined,
  ) {
    super(options);
  }

  override consume(...args: Parameters<RateLimiterRedis['consume']>): ReturnType<RateLimiterRedis['consume']> {
    return this.guarded(() => super.consume(...args));
  }

  override reward(...args: Parameters<RateLimiterRedis['reward']>): ReturnType<RateLimiterRedis['reward']> {
    return this.guarded(() => super.reward(...args));
  }

  override penalty(...args: Parameters<RateLimiterRedis['penalty']>): ReturnType<RateLimiterRedis['penalty']> {
    return this.guarded(() => super.penalty(...args));
  }

  override get(...args: Parameters<RateLimiterRedis['get']>): ReturnType<RateLimiterRedis['get']> {
    return this.guarded(() => super.get(...args));
  }

  private async guarded<T>(call: () => Promise<T>): Promise<T> {
    const waiting = this.ready();
    if (waiting) await waiting;
    try {
      return await call();
    } catch (err) {
      throw err instanceof Error ? redisFailure(err) : err;
    }
  }
}

const toMs = (ttlSeconds: number): number => {
  if (!(ttlSeconds > 0)) throw new Error(`ttlSeconds must be positive, got ${ttlSeconds}`);
  return Math.max(1, Math.round(ttlSeconds * 1000));
};
