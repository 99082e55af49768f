import { randomUUID } from 'node:crypto';
import { appendFile, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { writeUntilKilled } from '../testing/crash';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { makeTempDir, removeDir, tempDirPerTest } from '../testing/temp-dir';
import { VersionConflictError } from './event-store.port';
import { FileEventStore } from './file.event-store';

describeEventStoreContract('file (JSONL)', async () => {
  const dir = await makeTempDir('events');
  return {
    open: () => FileEventStore.open(dir),
    cleanup: () => removeDir(dir),
  };
});

const event = (type: string) => ({
  eventId: randomUUID(),
  type,
  data: { type },
  projectId: '00000000-0000-4000-8000-000000000000',
  occurredAt: '2024-01-01T00:00:00.000Z',
});

describe('FileEventStore on disk', () => {
  const dir = tempDirPerTest('events');

  it('drops a torn append whole (none of its events), then goes on from the last complete one', async () => {
    const store = await FileEventStore.open(dir.path);
    const kept = await store.append('s', 0, [event('A'), event('B')]);
    await store.close();
    const file = join(dir.path, 'events.jsonl');
    const torn = JSON.stringify({
      t: 'append',
      events: [
        { ...event('C'), streamId: 's', version: 3 },
        { ...event('D'), streamId: 's', version: 4 },
      ],
    });
    await appendFile(file, torn.slice(0, Math.floor(torn.length * 0.7)));

    const reopened = await FileEventStore.open(dir.path);
    expect(await reopened.readStream('s')).toEqual(kept);
    expect(await reopened.pendingPublication(10)).toEqual(kept);
    await expect(reopened.append('s', 4, [event('X')])).rejects.toBeInstanceOf(VersionConflictError);
    await reopened.append('s', 2, [event('C2')]);
    await reopened.close();
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    const third = await FileEventStore.open(dir.path);
    expect((await third.readStream('s')).map((e) => e.type)).toEqual(['A', 'B', 'C2']);
    await third.close();
  });

  it('writes marks and appends made in one turn in one write: a mark does not hold the appends behind its fsync', async () => {
    const store = await FileEventStore.open(dir.path);
    const earlier = await Promise.all(Array.from({ length: 10 }, (_, n) => store.append(`s-${n}`, 0, [event('Earlier')])));
    const probe = await open(join(dir.path, 'probe'), 'a');
    await probe.close();
    const writes = vi.spyOn(Object.getPrototypeOf(probe) as { write(...args: unknown[]): Promise<unknown> }, 'write');
    try {
      await Promise.all(
        earlier.flatMap(([stored], n) => [store.markPublished([stored!.eventId]), store.append(`s-${n}`, 1, [event('Later')])]),
      );
      // Made in one turn of the event loop: one write for the 20.
      expect(writes.mock.calls.length).toBe(1);
    } finally {
      writes.mockRestore();
    }
    expect(await store.pendingPublication(100)).toHaveLength(10); // the later ten
    await store.close();
  });

  it('lets one of two appends made in one turn at the same expected version win, and writes only its events', async () => {
    const store = await FileEventStore.open(dir.path);
    const [won, lost] = await Promise.allSettled([store.append('s', 0, [event('A')]), store.append('s', 0, [event('B')])]);
    expect(won.status).toBe('fulfilled');
    expect(lost.status === 'rejected' && lost.reason).toBeInstanceOf(VersionConflictError);
    await store.close();
    const reopened = await FileEventStore.open(dir.path);
    expect((await reopened.readStream('s')).map((e) => e.type)).toEqual(['A']);
    await reopened.close();
  });

  it('refuses an event id that is already stored', async () => {
    const store = await FileEventStore.open(dir.path);
    const e = event('A');
    await store.append('s', 0, [e]);
    await expect(store.append('t', 0, [e])).rejects.toThrow(/already stored/);
    await expect(store.append('t', 0, [event('B'), { ...event('C'), eventId: e.eventId }])).rejects.toThrow(/already stored/);
    expect(await store.readStream('t')).toEqual([]);
    await store.close();
  });

  it('keeps every acknowledged append, whole, when the process is killed with SIGKILL mid-stream', async () => {
    const acked = await writeUntilKilled('events', dir.path, 60);
    const acknowledged = new Map<string, number>();
    for (const line of acked) {
      const [streamId, version] = line.split(' ');
      acknowledged.set(streamId!, Math.max(acknowledged.get(streamId!) ?? 0, Number(version)));
    }
    const store = await FileEventStore.open(dir.path);
    for (const [streamId, version] of acknowledged) {
      const events = await store.readStream(streamId);
      expect(events.length).toBeGreaterThanOrEqual(version);
      // Appends are of three events each: a partial one would leave a length that is not a multiple of 3.
      expect(events.length % 3).toBe(0);
      expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual(events.map((_, i) => i + 1));
    }
    const s0 = await store.readStream('s0');
    await store.append('s0', s0.length, [event('AfterCrash')]);
    await store.close();
    const again = await FileEventStore.open(dir.path);
    expect((await again.readStream('s0')).at(-1)?.type).toBe('AfterCrash');
    await again.close();
  });
});
