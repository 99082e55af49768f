import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRedis } from 'rate-limiter-flexible';
import { registerDependency } from '../health/dependencies';
import { logger } from '../logger/logger';
import { coalesceRedisWrites } from '../redis/redis-write-coalescing';
import type { KeyValueStore } from './kv.port';

export interface RedisKeyValueStoreOptions {
  /** Put before every key, the rate limiters' included (e.g. `palaver:`). */
  keyPrefix?: string;
}

/** Key-value store and rate limiters on Redis. Expiries are set in milliseconds (PX / PEXPIRE). */
export class RedisKeyValueStore implements KeyValueStore {
  private readonly redis: Redis;
  private readonly unregister: () => void;

  constructor(url: string, options: RedisKeyValueStoreOptions = {}) {
    // Sessions and rate limits: a command or two for every init, read and message (see coalesceRedisWrites).
    this.redis = coalesceRedisWrites(new Redis(url, { keyPrefix: options.keyPrefix ?? '' }));
    this.redis.on('error', (err) => logger.warn({ err }, 'redis key-value connection error'));
    this.unregister = registerDependency('redis', () => this.redis.status === 'ready');
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    if (ttlSeconds === undefined) await this.redis.set(key, value);
    else await this.redis.set(key, value, 'PX', toMs(ttlSeconds));
  }

  async expire(key: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.pexpire(key, toMs(ttlSeconds))) === 1;
  }

  async del(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async increment(key: string, ttlSeconds: number, by = 1): Promise<number> {
    const results = await this.redis.multi().incrby(key, by).pexpire(key, toMs(ttlSeconds), 'NX').exec();
    const [error, count] = results?.[0] ?? [new Error('increment: no reply')];
    if (error) throw error;
    return Number(count);
  }

  rateLimiter(options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.durationSeconds,
    });
  }

  async close(): Promise<void> {
    this.unregister();
    if (this.redis.status === 'end') return;
    await this.redis.quit();
  }
}

const toMs = (ttlSeconds: number): number => {
  if (!(ttlSeconds > 0)) throw new Error(`ttlSeconds must be positive, got ${ttlSeconds}`);
  return Math.max(1, Math.round(ttlSeconds * 1000));
};
