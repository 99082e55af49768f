import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** Small keyed state with expiry: sessions, counters (Redis in distributed mode). */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets the value only when the key does not exist (an atomic claim); true when it was set. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Resets the expiry; false when the key does not exist. */
  expire(key: string, ttlSeconds: number): Promise<boolean>;
  del(key: string): Promise<void>;
  /**
   * Adds `by` (default 1; negative to give back) to an integer counter (a missing key counts
   * from 0) and answers the new count. The expiry is set only when the increment creates the
   * key: a fixed window, not a sliding one.
   */
  increment(key: string, ttlSeconds: number, by?: number): Promise<number>;
  /** A rate-limiter-flexible limiter that keeps its counters in this store. */
  rateLimiter(options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterAbstract;
  close(): Promise<void>;
}
