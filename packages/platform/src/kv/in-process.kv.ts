import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { type Clock, systemClock } from '../clock/clock.port';
import type { KeyValueStore } from './kv.port';

interface Entry {
  value: string;
  /** Epoch ms; absent when the key never expires. */
  expiresAt?: number;
}

const SWEEP_EVERY_WRITES = 512;

/**
 * Embedded key-value store. Expiry is read from the injected clock, so tests can move time;
 * expired keys are dropped when read and swept now and then on writes.
 */
export class InProcessKeyValueStore implements KeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private writes = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const entry: Entry = { value };
    if (ttlSeconds !== undefined) entry.expiresAt = this.expiry(ttlSeconds);
    this.entries.set(key, entry);
    if (++this.writes % SWEEP_EVERY_WRITES === 0) this.sweep();
  }

  async expire(key: string, ttlSeconds: number): Promise<boolean> {
    const entry = this.live(key);
    if (!entry) return false;
    entry.expiresAt = this.expiry(ttlSeconds);
    return true;
  }

  async del(key: string): Promise<void> {
    this.entries.delete(key);
  }

  rateLimiter(options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterAbstract {
    return new RateLimiterMemory({
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.durationSeconds,
    });
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private expiry(ttlSeconds: number): number {
    if (!(ttlSeconds > 0)) throw new Error(`ttlSeconds must be positive, got ${ttlSeconds}`);
    return this.clock.now().getTime() + Math.round(ttlSeconds * 1000);
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
