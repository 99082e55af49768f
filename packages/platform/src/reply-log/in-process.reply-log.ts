import { copyJsonValue, jsonCopy } from '../json/json-copy';
import type { FollowOptions, ReplyLog } from './reply-log.port';

interface Log {
  entries: unknown[];
  waiters: Set<() => void>;
  expiry: NodeJS.Timeout | undefined;
  /** Whether `expiry` is the TTL after the last append (re-armed by the next), not the wait for a first one. */
  kept: boolean;
}

/**
 * The embedded reply log: an array per reply in this process, dropped `ttlMs` after its last
 * append. Entries are kept as JSON copies, as Redis keeps them.
 */
export class InProcessReplyLog implements ReplyLog {
  private readonly logs = new Map<string, Log>();

  constructor(private readonly ttlMs: number) {}

  async append(replyId: string, entry: unknown): Promise<void> {
    const copy = entry === undefined ? null : jsonCopy(entry);
    let log = this.logs.get(replyId);
    if (!log) {
      log = { entries: [], waiters: new Set(), expiry: undefined, kept: false };
      this.logs.set(replyId, log);
    }
    if (log.kept) log.expiry!.refresh();
    else {
      clearTimeout(log.expiry);
      const current = log;
      current.expiry = setTimeout(() => {
        if (this.logs.get(replyId) === current) this.logs.delete(replyId);
      }, this.ttlMs);
      current.expiry.unref();
      current.kept = true;
    }
    log.entries.push(copy);
    if (log.waiters.size > 0) for (const wake of [...log.waiters]) wake();
  }

  async entries(replyId: string): Promise<unknown[]> {
    return copyJsonValue(this.logs.get(replyId)?.entries ?? []);
  }

  async *follow(replyId: string, { idleMs, signal }: FollowOptions): AsyncGenerator<unknown> {
    let next = 0;
    while (!signal?.aborted) {
      const log = this.logs.get(replyId);
      if (log && next < log.entries.length) {
        yield copyJsonValue(log.entries[next++]);
        continue;
      }
      if (!(await this.arrival(replyId, idleMs, signal))) return;
    }
  }

  /** Waits for the next append to the reply (true), `idleMs` (false) or the abort (false). */
  private arrival(replyId: string, idleMs: number, signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      // A log that does not exist yet is waited for too: the reply may not have started.
      let log = this.logs.get(replyId);
      if (!log) {
        log = { entries: [], waiters: new Set(), expiry: setTimeout(() => this.dropIfEmpty(replyId), idleMs), kept: false };
        log.expiry!.unref();
        this.logs.set(replyId, log);
      }
      const waiters = log.waiters;
      const settle = (arrived: boolean) => {
        clearTimeout(timer);
        waiters.delete(onAppend);
        signal?.removeEventListener('abort', onAbort);
        if (!arrived) this.dropIfEmpty(replyId);
        resolve(arrived);
      };
      const onAppend = () => settle(true);
      const onAbort = () => settle(false);
      const timer = setTimeout(() => settle(false), idleMs);
      waiters.add(onAppend);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private dropIfEmpty(replyId: string): void {
    const log = this.logs.get(replyId);
    if (log && log.entries.length === 0 && log.waiters.size === 0) this.logs.delete(replyId);
  }

  async close(): Promise<void> {
    for (const log of this.logs.values()) clearTimeout(log.expiry);
    this.logs.clear();
  }
}
