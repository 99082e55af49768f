import { appendFile, mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../storage/durable-file';
import { writeUntilKilled } from '../testing/crash';
import { describeEventStreamContract } from '../testing/event-stream.contract';
import type { StreamMessage } from './event-stream.port';
import { FileEventStream } from './file.event-stream';

// Counted, so a test can see how often a consumer position is written.
vi.mock('../storage/durable-file', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../storage/durable-file')>();
  return { ...actual, writeFileAtomic: vi.fn(actual.writeFileAtomic) };
});

describeEventStreamContract('file (JSONL)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-stream-'));
  return {
    open: () => FileEventStream.open(dir, { redeliveryDelayMs: 30 }),
    subjectPrefix: 'test',
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

const waitFor = async (condition: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('FileEventStream on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-stream-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('persists the consumer position in its own file, replaced atomically', async () => {
    const stream = await FileEventStream.open(dir);
    const seen: StreamMessage[] = [];
    const sub = await stream.subscribe('analytics', 'a.>', async (m) => {
      seen.push(m);
    });
    await stream.publish('a.one', 1, 'x1');
    await stream.publish('b.skip', 2, 'x2');
    await stream.publish('a.two', 3, 'x3');
    await waitFor(() => seen.length === 2);
    await sub.stop();
    await stream.close();
    expect(JSON.parse(await readFile(join(dir, 'consumers', 'analytics.json'), 'utf8'))).toEqual({ ackSeq: 3 });
    expect((await readdir(join(dir, 'consumers'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a busy consumer position a few times, not once per message, and the last one on stop', async () => {
    const stream = await FileEventStream.open(dir);
    let handled = 0;
    await stream.subscribe('busy', 'a.>', async () => {
      handled += 1;
    });
    vi.mocked(writeFileAtomic).mockClear();
    const started = Date.now();
    for (let n = 1; n <= 500; n++) await stream.publish('a.n', n, `busy-${n}`);
    await waitFor(() => handled === 500);
    const elapsed = Date.now() - started;
    await stream.close();
    // At most one write per 100 ms while busy, and the last one on close.
    const writes = vi.mocked(writeFileAtomic).mock.calls.length;
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
    expect(JSON.parse(await readFile(join(dir, 'consumers', 'busy.json'), 'utf8'))).toEqual({ ackSeq: 500 });
  });

  it('writes publications made together in one write (group commit), and delivers them in publication order', async () => {
    const stream = await FileEventStream.open(dir);
    const probe = await open(join(dir, 'probe'), 'a');
    await probe.close();
    const writes = vi.spyOn(Object.getPrototypeOf(probe) as { write(...args: unknown[]): Promise<unknown> }, 'write');
    try {
      // Made in one turn of the event loop, as the outbox publishes a command's events.
      await Promise.all(Array.from({ length: 20 }, (_, n) => stream.publish('a.n', n, `m${n}`)));
      expect(writes.mock.calls.length).toBe(1);
      // Made while a write is under way: the first starts one at once, the rest share the next.
      const first = stream.publish('a.n', 20, 'm20');
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([first, ...Array.from({ length: 29 }, (_, n) => stream.publish('a.n', 21 + n, `m${21 + n}`))]);
      expect(writes.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      writes.mockRestore();
    }
    const seen: unknown[] = [];
    const sub = await stream.subscribe('reader', 'a.>', async (m) => {
      seen.push(m.payload);
    });
    await waitFor(() => seen.length === 50);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, n) => n));
    await sub.stop();
    await stream.close();
  });

  it('refuses a payload that is not JSON without taking a sequence number', async () => {
    const stream = await FileEventStream.open(dir);
    await stream.publish('a.one', 1, 'x1');
    await expect(stream.publish('a.big', { n: 1n }, 'x2')).rejects.toThrow(/BigInt/);
    await stream.publish('a.three', 3, 'x3');
    const seen: StreamMessage[] = [];
    const sub = await stream.subscribe('reader', 'a.>', async (m) => {
      seen.push(m);
    });
    await waitFor(() => seen.length === 2);
    expect(seen.map((m) => [m.seq, m.payload])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    await sub.stop();
    await stream.close();
  });

  it('ignores a torn last message and numbers the next one after the last complete one', async () => {
    const stream = await FileEventStream.open(dir);
    await stream.publish('a.one', { n: 1 }, 'k1');
    await stream.close();
    await appendFile(join(dir, 'stream.jsonl'), '{"seq":2,"subject":"a.two","payl');
    const reopened = await FileEventStream.open(dir);
    await reopened.publish('a.two', { n: 2 }, 'k2');
    const seen: StreamMessage[] = [];
    await reopened.subscribe('reader', '>', async (m) => {
      seen.push(m);
    });
    await waitFor(() => seen.length === 2);
    await reopened.close();
    expect(seen.map((m) => [m.seq, m.payload])).toEqual([
      [1, { n: 1 }],
      [2, { n: 2 }],
    ]);
  });

  it('rejects invalid subjects, filters and durable names', async () => {
    const stream = await FileEventStream.open(dir);
    const noop = async () => undefined;
    await expect(stream.publish('a.*', 1, 'w')).rejects.toThrow(/invalid subject/);
    await expect(stream.publish('a..b', 1, 'w')).rejects.toThrow(/invalid subject/);
    await expect(stream.subscribe('ok', 'a.>.b', noop)).rejects.toThrow(/invalid subject filter/);
    await expect(stream.subscribe('bad.name', 'a.>', noop)).rejects.toThrow(/invalid durable/);
    await expect(stream.subscribe('../x', 'a.>', noop)).rejects.toThrow(/invalid durable/);
    await stream.close();
  });

  it('shares a durable between two subscriptions, each message handled once', async () => {
    const stream = await FileEventStream.open(dir);
    const seen: number[] = [];
    const handler = async (m: StreamMessage) => {
      seen.push(m.payload as number);
    };
    await stream.subscribe('shared', 'a.>', handler);
    await stream.subscribe('shared', 'a.>', handler);
    await expect(stream.subscribe('shared', 'b.>', handler)).rejects.toThrow(/already subscribed/);
    for (let i = 1; i <= 6; i++) await stream.publish('a.x', i, `s${i}`);
    await waitFor(() => seen.length === 6);
    await stream.close();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps every acknowledged message (and its dedupe) when the process is killed with SIGKILL mid-stream', async () => {
    const acked = await writeUntilKilled('stream', dir, 90);
    const stream = await FileEventStream.open(dir);
    const seen: StreamMessage[] = [];
    await stream.subscribe('after-crash', 'crash.>', async (m) => {
      seen.push(m);
    });
    // Republishing an acknowledged id is a no-op; a new one lands after everything.
    await stream.publish('crash.evt.k0', { msgId: acked[0] }, acked[0]!);
    await stream.publish('crash.evt.done', { msgId: 'done' }, 'done');
    await waitFor(() => seen.some((m) => (m.payload as { msgId: string }).msgId === 'done'));
    await stream.close();
    const ids = seen.map((m) => (m.payload as { msgId: string }).msgId);
    expect(acked.filter((id) => !ids.includes(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.map((m) => m.seq)).toEqual(seen.map((_, i) => i + 1));
  });
});
