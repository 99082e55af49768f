import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReplyLog } from '../reply-log/reply-log.port';

/** Reads `log`'s follow of `replyId` until an entry equals `last` (the reply's end, for these tests). */
const readUntil = async (log: ReplyLog, replyId: string, last: unknown, idleMs = 2_000, signal?: AbortSignal): Promise<unknown[]> => {
  const seen: unknown[] = [];
  for await (const entry of log.follow(replyId, { idleMs, signal })) {
    seen.push(entry);
    if (JSON.stringify(entry) === JSON.stringify(last)) break;
  }
  return seen;
};

/**
 * The behaviour every ReplyLog adapter shares; `factory(ttlMs)` gives a fresh instance (two calls
 * share the same logs when the adapter is shared, as two processes on one Redis do).
 */
export function describeReplyLogContract(adapterName: string, factory: (ttlMs: number) => Promise<ReplyLog>): void {
  describe(`ReplyLog contract: ${adapterName}`, () => {
    let log: ReplyLog;
    const reply = () => `reply-${randomUUID()}`;

    beforeEach(async () => {
      log = await factory(60_000);
    });

    afterEach(async () => {
      await log.close();
    });

    it('keeps the entries of a reply in order, as copies, apart from other replies', async () => {
      const id = reply();
      const entry = { type: 'delta', delta: 'Hel' };
      await log.append(id, entry);
      await log.append(id, { type: 'delta', delta: 'lo' });
      await log.append(reply(), { type: 'delta', delta: 'elsewhere' });
      entry.delta = 'changed';
      expect(await log.entries(id)).toEqual([
        { type: 'delta', delta: 'Hel' },
        { type: 'delta', delta: 'lo' },
      ]);
      expect(await log.entries(reply())).toEqual([]);
    });

    it('replays a reply from its first entry, then follows it live', async () => {
      const id = reply();
      await log.append(id, { n: 1 });
      await log.append(id, { n: 2 });
      const reading = readUntil(log, id, { n: 4 });
      await log.append(id, { n: 3 });
      await log.append(id, { n: 4 });
      expect(await reading).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    });

    it('waits for a reply that has not started yet', async () => {
      const id = reply();
      const reading = readUntil(log, id, { n: 2 });
      await log.append(id, { n: 1 });
      await log.append(id, { n: 2 });
      expect(await reading).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('serves several readers of one reply, each from the first entry', async () => {
      const id = reply();
      await log.append(id, { n: 1 });
      const first = readUntil(log, id, { n: 3 });
      await log.append(id, { n: 2 });
      const second = readUntil(log, id, { n: 3 });
      await log.append(id, { n: 3 });
      expect(await first).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(await second).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('ends a reading after idleMs without an entry, and at once when its signal aborts', async () => {
      const id = reply();
      await log.append(id, { n: 1 });
      expect(await readUntil(log, id, 'never', 200)).toEqual([{ n: 1 }]);
      const stop = new AbortController();
      const reading = readUntil(log, id, 'never', 60_000, stop.signal);
      const started = Date.now();
      setTimeout(() => stop.abort(), 100);
      expect(await reading).toEqual([{ n: 1 }]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('forgets a reply ttlMs after its last entry', async () => {
      const short = await factory(300);
      try {
        const id = reply();
        await short.append(id, { n: 1 });
        expect(await short.entries(id)).toEqual([{ n: 1 }]);
        await expect.poll(() => short.entries(id), { timeout: 5_000, interval: 50 }).toEqual([]);
      } finally {
        await short.close();
      }
    });
  });
}
