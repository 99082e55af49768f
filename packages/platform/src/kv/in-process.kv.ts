import { join } from 'node:path';
import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { type Clock, systemClock } from '../clock/clock.port';
import { logger } from '../logger/logger';
import { JsonlLog } from '../storage/jsonl-log';
import { SerialQueue } from '../storage/serial-queue';
import type { KeyValueStore } from './kv.port';

interface Entry {
  value: string;
  /** Epoch ms; absent when the key never expires. */
  expiresAt?: number;
}

/** Expiries are logged as absolute times, so a replay needs no knowledge of when a line was written. */
type LogOp =
  | { op: 'set'; key: string; value: string; expiresAt?: number }
  | { op: 'expire'; key: string; expiresAt: number }
  | { op: 'del'; key: string };

export interface InProcessKeyValueStoreOptions {
  /** Compact the log while running once it holds this many records more than twice the live keys. */
  compactionSlack?: number;
}

const LOG_FILE = 'kv.jsonl';
/** Keys a write looks at for expiry (more than the one it may add, so the sweep keeps up). */
const SWEEP_PER_WRITE = 8;
const DEFAULT_COMPACTION_SLACK = 10_000;

/**
 * Embedded key-value store. Expiry is read from the injected clock, so tests can move time;
 * expired keys are dropped when read, and each write looks at a few more keys in turn and drops
 * the expired ones (as Redis does), so no write pays for a scan of them all.
 *
 * `new InProcessKeyValueStore()` keeps everything in memory only. `InProcessKeyValueStore.open(dir)`
 * also appends every set/expire/del to a JSONL log in `dir`, fsynced before the write resolves, and
 * replays it on open (dropping what expired meanwhile), so visitor sessions survive a restart or a
 * kill -9. The log is compacted on open, and while running once it has grown far beyond the live keys.
 *
 * Rate limiter counters stay in memory even then: they only span a short window, and losing them
 * on a restart merely resets the windows in progress.
 */
export class InProcessKeyValueStore implements KeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private readonly writes = new SerialQueue();
  private log: JsonlLog<LogOp> | null = null;
  private compactionSlack = DEFAULT_COMPACTION_SLACK;
  /** Where the incremental sweep goes on (a Map iterator sees later additions and skips deletions). */
  private sweepCursor: Iterator<[string, Entry]> | null = null;

  constructor(private readonly clock: Clock = systemClock) {}

  /** A store persisted in `dir` (created if needed), holding what the log there holds. */
  static async open(dir: string, clock: Clock = systemClock, options: InProcessKeyValueStoreOptions = {}): Promise<InProcessKeyValueStore> {
    const { log, records } = await JsonlLog.open<LogOp>(join(dir, LOG_FILE));
    const store = new InProcessKeyValueStore(clock);
    try {
      for (const record of records) store.apply(record);
      store.sweep();
      if (records.length > store.entries.size) await log.rewrite(store.snapshot());
    } catch (error) {
      await log.close();
      throw error;
    }
    store.log = log;
    store.compactionSlack = options.compactionSlack ?? DEFAULT_COMPACTION_SLACK;
    return store;
  }

  async get(key: string): Promise<string | null> {
    const value = this.live(key)?.value ?? null;
    // What a read sees is durable: it waits for the writes in flight (none, most of the time).
    if (this.log?.pending) await this.log.durable();
    return value;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const op: LogOp = { op: 'set', key, value };
    if (ttlSeconds !== undefined) op.expiresAt = this.expiry(ttlSeconds);
    await this.write(() => op);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const expiresAt = this.expiry(ttlSeconds);
    // Decided in the write queue, so of two claims made at once only the first finds the key absent.
    const op = await this.write(() => (this.live(key) ? null : { op: 'set', key, value, expiresAt }));
    return op !== null;
  }

  async expire(key: string, ttlSeconds: number): Promise<boolean> {
    const expiresAt = this.expiry(ttlSeconds);
    // Decided in the write queue, so a set or del called just before is seen.
    const op = await this.write(() => (this.live(key) ? { op: 'expire', key, expiresAt } : null));
    return op !== null;
  }

  async del(key: string): Promise<void> {
    await this.write(() => (this.entries.has(key) ? { op: 'del', key } : null));
  }

  async increment(key: string, ttlSeconds: number, by = 1): Promise<number> {
    const op = await this.write(() => {
      const current = this.live(key);
      const value = String(Number(current?.value ?? 0) + by);
      const expiresAt = current ? current.expiresAt : this.expiry(ttlSeconds);
      return expiresAt === undefined ? { op: 'set', key, value } : { op: 'set', key, value, expiresAt };
    });
    return Number((op as Extract<LogOp, { op: 'set' }>).value);
  }

  rateLimiter(options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterAbstract {
    return new RateLimiterMemory({
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.durationSeconds,
    });
  }

  async close(): Promise<void> {
    await this.writes.drain();
    await this.log?.close();
    this.entries.clear();
  }

  /**
   * Runs one write after the ones before it: `plan` returns the op (or null for nothing to do),
   * which is queued on the log and applied in memory; the write resolves once the log has fsynced
   * it. Writes do not wait for each other's fsync: those made in one turn of the event loop go out
   * in one write of the log, and those made while it is under way share the next (group commit).
   */
  private async write(plan: () => LogOp | null): Promise<LogOp | null> {
    // A write is synchronous: only a compaction queued before it makes it wait its turn.
    const { op, durable } = this.writes.idle ? this.writeNow(plan) : await this.writes.run(async () => this.writeNow(plan));
    await durable;
    return op;
  }

  private writeNow(plan: () => LogOp | null): { op: LogOp | null; durable: Promise<void> | undefined } {
    const op = plan();
    if (!op) return { op, durable: this.log?.durable() };
    const durable = this.log?.append([op]);
    this.apply(op);
    this.sweepSome(SWEEP_PER_WRITE);
    // Queued behind this write, and only by a write that found no compaction queued before it.
    const log = this.log;
    if (log && this.writes.idle && log.size > 2 * this.entries.size + this.compactionSlack) void this.writes.run(() => this.compact(log));
    return { op, durable };
  }

  /** The log writes the write that called for it first: a failed compaction is only reported. */
  private async compact(log: JsonlLog<LogOp>): Promise<void> {
    this.sweep();
    try {
      await log.rewrite(this.snapshot());
    } catch (err) {
      logger.warn({ err, path: log.path }, 'key-value log compaction failed');
    }
  }

  private apply(op: LogOp): void {
    switch (op.op) {
      case 'set':
        this.entries.set(op.key, op.expiresAt === undefined ? { value: op.value } : { value: op.value, expiresAt: op.expiresAt });
        return;
      case 'expire': {
        const entry = this.entries.get(op.key);
        if (entry) entry.expiresAt = op.expiresAt;
        return;
      }
      case 'del':
        this.entries.delete(op.key);
        return;
      default: {
        const unknown: never = op;
        throw new Error(`unknown key-value log op ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The live keys as log records, for a compaction. */
  private snapshot(): LogOp[] {
    return [...this.entries].map(([key, entry]) =>
      entry.expiresAt === undefined
        ? { op: 'set', key, value: entry.value }
        : { op: 'set', key, value: entry.value, expiresAt: entry.expiresAt },
    );
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

  /** Drops the expired among the next `count` keys of the sweep's round, starting a new round at the end. */
  private sweepSome(count: number): void {
    const now = this.clock.now().getTime();
    for (let i = 0; i < count; i++) {
      this.sweepCursor ??= this.entries.entries();
      const next = this.sweepCursor.next();
      if (next.done) {
        this.sweepCursor = null;
        return;
      }
      const [key, entry] = next.value;
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.entries.delete(key);
    }
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
