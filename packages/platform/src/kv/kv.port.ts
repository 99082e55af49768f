import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** Small keyed state with expiry: sessions, counters (Redis in distributed mode). */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Resets the expiry; false when the key does not exist. */
  expire(key: string, ttlSeconds: number): Promise<boolean>;
  del(key: string): Promise<void>;
  /** A rate-limiter-flexible limiter that keeps its counters in this store. */
  rateLimiter(options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterAbstract;
  close(): Promise<void>;
}
