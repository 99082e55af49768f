import { appendFile, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../storage/durable-file';
import { writeUntilKilled } from '../testing/crash';
import { describeEventStreamContract } from '../testing/event-stream.contract';
import { makeTempDir, removeDir, tempDirPerTest } from '../testing/temp-dir';
import type { StreamMessage } from './event-stream.port';
import { FileEventStream } from './file.event-stream';

// Counted, so a test can see how often a consumer position is written.
vi.mock('../storage/durable-file', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../storage/durable-file')>();
  return { ...actual, writeFileAtomic: vi.fn(actual.writeFileAtomic) };
});

describeEventStreamContract('file (JSONL)', async () => {
  const dir = await makeTempDir('stream');
  return {
    open: () => FileEventStream.open(dir, { redeliveryDelayMs: 30 }),
    subjectPrefix: 'test',
    cleanup: () => removeDir(dir),
  };
});

/** Polls until the condition holds (vi.waitFor keeps the real timers, which the retention tests' fake Date leaves alone). */
const waitFor = async (condition: () => Promise<boolean> | boolean): Promise<void> => {
  await vi.waitFor(async () => expect(await condition(), 'the condition').toBe(true), { timeout: 5_000, interval: 10 });
};

describe('FileEventStream on disk', () => {
  const dir = tempDirPerTest('stream');

  it('persists the consumer position in its own file, replaced atomically', async () => {
    const stream = await FileEventStream.open(dir.path);
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
    expect(JSON.parse(await readFile(join(dir.path, 'consumers', 'analytics.json'), 'utf8'))).toEqual({ ackSeq: 3 });
    expect((await readdir(join(dir.path, 'consumers'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a busy consumer position a few times, not once per message, and the last one on stop', async () => {
    const stream = await FileEventStream.open(dir.path);
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
    expect(JSON.parse(await readFile(join(dir.path, 'consumers', 'busy.json'), 'utf8'))).toEqual({ ackSeq: 500 });
  });

  it('writes publications made together in one write (group commit), and delivers them in publication order', async () => {
    const stream = await FileEventStream.open(dir.path);
    const probe = await open(join(dir.path, 'probe'), 'a');
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
    const stream = await FileEventStream.open(dir.path);
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
    const stream = await FileEventStream.open(dir.path);
    await stream.publish('a.one', { n: 1 }, 'k1');
    await stream.close();
    await appendFile(join(dir.path, 'stream.jsonl'), '{"seq":2,"subject":"a.two","payl');
    const reopened = await FileEventStream.open(dir.path);
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
    const stream = await FileEventStream.open(dir.path);
    const noop = async () => undefined;
    await expect(stream.publish('a.*', 1, 'w')).rejects.toThrow(/invalid subject/);
    await expect(stream.publish('a..b', 1, 'w')).rejects.toThrow(/invalid subject/);
    await expect(stream.subscribe('ok', 'a.>.b', noop)).rejects.toThrow(/invalid subject filter/);
    await expect(stream.subscribe('bad.name', 'a.>', noop)).rejects.toThrow(/invalid durable/);
    await expect(stream.subscribe('../x', 'a.>', noop)).rejects.toThrow(/invalid durable/);
    await stream.close();
  });

  it('shares a durable between two subscriptions, each message handled once', async () => {
    const stream = await FileEventStream.open(dir.path);
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
    const acked = await writeUntilKilled('stream', dir.path, 90);
    const stream = await FileEventStream.open(dir.path);
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

describe('FileEventStream retention', () => {
  const DAY = 24 * 3600_000;
  const dir = tempDirPerTest('stream');
  beforeEach(() => {
    // Only the clock the stream dates its messages by: its timers and file operations run as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const logLines = async (): Promise<Array<{ seq: number; at?: number }>> =>
    (await readFile(join(dir.path, 'stream.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  const collect = async (stream: FileEventStream, durable: string): Promise<Array<[number, unknown]>> => {
    const seen: Array<[number, unknown]> = [];
    await stream.subscribe(durable, 'a.>', async (m) => {
      seen.push([m.seq, m.payload]);
    });
    return seen;
  };

  it('lets go of messages older than 30 days, as the JetStream stream does, and rewrites its log without them', async () => {
    const stream = await FileEventStream.open(dir.path);
    await Promise.all(Array.from({ length: 1_200 }, (_, n) => stream.publish('a.n', n, `old-${n}`)));
    const early = await collect(stream, 'early');
    await waitFor(() => early.length === 1_200);

    vi.setSystemTime(Date.now() + 30 * DAY + 1_000);
    await stream.publish('a.n', 'new', 'new-1');
    await waitFor(async () => (await logLines()).length === 1);
    expect((await logLines()).map((m) => m.seq)).toEqual([1_201]);
    // An expired message's id is free again, as past JetStream's duplicate window.
    await stream.publish('a.n', 'again', 'old-0');
    const late = await collect(stream, 'late');
    await waitFor(() => late.length === 2);
    expect(late).toEqual([
      [1_201, 'new'],
      [1_202, 'again'],
    ]);
    await waitFor(() => early.length === 1_202);
    await stream.close();

    const reopened = await FileEventStream.open(dir.path);
    await reopened.publish('a.n', 'after', 'after-1');
    await reopened.publish('a.n', 'ignored', 'new-1'); // still deduplicated: kept
    const fresh = await collect(reopened, 'fresh');
    await waitFor(() => fresh.length === 3);
    expect(fresh).toEqual([
      [1_201, 'new'],
      [1_202, 'again'],
      [1_203, 'after'],
    ]);
    await reopened.close();
  });

  it('keeps every message published while its log is rewritten, once each, across a reopen', async () => {
    const stream = await FileEventStream.open(dir.path);
    await Promise.all(Array.from({ length: 1_200 }, (_, n) => stream.publish('a.n', n, `old-${n}`)));
    vi.setSystemTime(Date.now() + 31 * DAY);
    // The first starts the rewrite; the others are queued with it, and in the turns while it runs.
    const published: Array<Promise<void>> = [];
    for (let turn = 0; turn < 20; turn++) {
      for (let k = 0; k < 5; k++) published.push(stream.publish('a.n', turn * 5 + k, `new-${turn * 5 + k}`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(published);
    await stream.close();
    const reopened = await FileEventStream.open(dir.path);
    const seen = await collect(reopened, 'reader');
    // Delivered in log order: once a message published now arrives, nothing before it is still to come.
    await reopened.publish('a.n', 'end', 'end');
    await waitFor(() => seen.some(([, payload]) => payload === 'end'));
    await reopened.close();
    expect(seen.slice(0, -1)).toEqual(Array.from({ length: 100 }, (_, n) => [1_201 + n, n]));
    expect(seen.at(-1)![1]).toBe('end');
    expect((await logLines()).length).toBeLessThan(1_200);
  });

  it('keeps a few expired messages in its log until they are worth a rewrite', async () => {
    const stream = await FileEventStream.open(dir.path);
    for (let n = 0; n < 5; n++) await stream.publish('a.n', n, `m${n}`);
    vi.setSystemTime(Date.now() + 31 * DAY);
    await stream.publish('a.n', 5, 'm5');
    const seen = await collect(stream, 'reader');
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([[6, 5]]);
    await stream.close();
    expect((await logLines()).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reads a message a rewrite holds twice once, and refuses a log with messages missing', async () => {
    const line = (seq: number) => `${JSON.stringify({ seq, subject: 'a.n', payload: seq, msgId: `k${seq}`, at: Date.now() })}\n`;
    await writeFile(join(dir.path, 'stream.jsonl'), [7, 8, 8, 9].map(line).join(''));
    const stream = await FileEventStream.open(dir.path);
    await stream.publish('a.n', 10, 'k10');
    const seen = await collect(stream, 'reader');
    await waitFor(() => seen.length === 4);
    expect(seen.map(([seq]) => seq)).toEqual([7, 8, 9, 10]);
    await stream.close();

    await writeFile(join(dir.path, 'stream.jsonl'), [1, 3].map(line).join(''));
    await expect(FileEventStream.open(dir.path)).rejects.toThrow(/skips from message 1 to 3/);
  });
});
