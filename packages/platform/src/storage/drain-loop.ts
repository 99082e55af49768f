import { logger } from '../logger/logger';

/**
 * Runs an outbox's drain: one at a time, callers arriving before the next drain starts sharing
 * it, once at start (what a crash or stop left pending) and then on a sweep interval (what a
 * failure left pending, or another instance could not deliver). The drain itself says what is
 * pending and delivers it; a failed drain leaves its work for the next one.
 */
export class DrainLoop {
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly drain: () => Promise<void>,
    /** Names the outbox in the log line of a failed drain. */
    private readonly name: string,
    private readonly sweepIntervalMs: number,
  ) {}

  /** Resolves once everything pending when it was called is delivered; rejects with the drain's failure. */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.tail.then(() => {
      this.queued = null;
      return this.drain();
    });
    this.queued = next;
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Flushes, logging instead of throwing: what is pending stays stored and the sweep retries. */
  async flushQuietly(): Promise<void> {
    try {
      await this.flush();
    } catch (err) {
      logger.error({ err }, `${this.name}: delivery failed, will retry`);
    }
  }

  /** Drains what the last run left pending, then sweeps on the interval. */
  async start(): Promise<void> {
    await this.flushQuietly();
    this.sweep = setInterval(() => void this.flushQuietly(), this.sweepIntervalMs);
    this.sweep.unref();
  }

  /** Stops the sweep and waits for the drain under way. */
  async stop(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    await this.tail;
  }
}
