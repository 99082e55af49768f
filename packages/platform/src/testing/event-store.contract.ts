import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EventStore, NewEvent } from '../event-store/event-store.port';
import { VersionConflictError } from '../event-store/event-store.port';
import { type StoreFixture, storePerTest } from './store-per-test';

export type EventStoreFixture = StoreFixture<EventStore>;

const PROJECT = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';

const event = (type: string, data: unknown = {}, occurredAt = '2024-03-01T10:00:00.000Z'): NewEvent => ({
  eventId: randomUUID(),
  type,
  data,
  projectId: PROJECT,
  occurredAt,
});

/**
 * The behaviour every EventStore adapter shares: optimistic concurrency on append, atomic
 * multi-event appends, ordered reads, and the outbox. `factory` gives a fixture over a fresh store.
 */
export function describeEventStoreContract(adapterName: string, factory: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    let store: EventStore;
    const { reopen, closedByTest } = storePerTest(factory, (opened) => {
      store = opened;
    });
    // Stream ids unique per test, so that a shared database cannot mix tests.
    let streamId: (name: string) => string;

    beforeEach(() => {
      const run = randomUUID().slice(0, 8);
      streamId = (name) => `conversation-${name}-${run}`;
    });

    it('starts a stream at expected version 0, numbering events from 1, keeping every field', async () => {
      const s = streamId('a');
      const first = event('ConversationStarted', { visitorId: 'v', nested: { list: [1, 'two', null], flag: true } });
      const second = event('UserMessagePosted', { content: 'hi' }, '2024-03-01T10:00:01.000Z');
      const stored = await store.append(s, 0, [first, second]);
      expect(stored).toEqual([
        { ...first, streamId: s, version: 1 },
        { ...second, streamId: s, version: 2 },
      ]);
      expect(await store.readStream(s)).toEqual(stored);
    });

    it('continues a stream at its current version and reads from a version on', async () => {
      const s = streamId('b');
      await store.append(s, 0, [event('A'), event('B')]);
      const more = await store.append(s, 2, [event('C')]);
      expect(more.map((e) => e.version)).toEqual([3]);
      await store.append(s, 3, [event('D'), event('E')]);
      expect((await store.readStream(s)).map((e) => [e.version, e.type])).toEqual([
        [1, 'A'],
        [2, 'B'],
        [3, 'C'],
        [4, 'D'],
        [5, 'E'],
      ]);
      expect((await store.readStream(s, 4)).map((e) => e.type)).toEqual(['D', 'E']);
      expect(await store.readStream(s, 6)).toEqual([]);
    });

    it('answers an empty list for a stream that does not exist', async () => {
      expect(await store.readStream(streamId('none'))).toEqual([]);
    });

    it('keeps streams apart', async () => {
      const a = streamId('a');
      const b = streamId('b');
      await store.append(a, 0, [event('A1')]);
      await store.append(b, 0, [event('B1'), event('B2')]);
      await store.append(a, 1, [event('A2')]);
      expect((await store.readStream(a)).map((e) => [e.streamId, e.version, e.type])).toEqual([
        [a, 1, 'A1'],
        [a, 2, 'A2'],
      ]);
      expect((await store.readStream(b)).map((e) => e.type)).toEqual(['B1', 'B2']);
    });

    it('rejects an append at the wrong expected version with VersionConflictError, writing nothing', async () => {
      const s = streamId('c');
      await store.append(s, 0, [event('A'), event('B')]);
      for (const expected of [0, 1, 3]) {
        const error = await store.append(s, expected, [event('X'), event('Y')]).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(VersionConflictError);
        expect(error).toMatchObject({ streamId: s, expectedVersion: expected, actualVersion: 2 });
      }
      await expect(store.append(streamId('new'), 1, [event('X')])).rejects.toBeInstanceOf(VersionConflictError);
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['A', 'B']);
      expect(await store.readStream(streamId('new'))).toEqual([]);
    });

    it('lets exactly one of several racing appends at the same version win', async () => {
      const s = streamId('race');
      await store.append(s, 0, [event('Start')]);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => store.append(s, 1, [event(`Racer${i}`), event(`Racer${i}-b`)])),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(7);
      for (const r of lost) expect(r.reason).toBeInstanceOf(VersionConflictError);
      const events = await store.readStream(s);
      expect(events.map((e) => e.version)).toEqual([1, 2, 3]);
      const winner = events[1]!.type;
      expect(events[2]!.type).toBe(`${winner}-b`);
    });

    it('serves a read-decide-append loop with retries from many concurrent writers without losing an event', async () => {
      const s = streamId('retry');
      const writers = 6;
      await Promise.all(
        Array.from({ length: writers }, async (_, i) => {
          for (;;) {
            const version = (await store.readStream(s)).length;
            try {
              await store.append(s, version, [event(`W${i}`)]);
              return;
            } catch (error) {
              if (!(error instanceof VersionConflictError)) throw error;
            }
          }
        }),
      );
      const events = await store.readStream(s);
      expect(events.map((e) => e.version)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(events.map((e) => e.type).sort()).toEqual(['W0', 'W1', 'W2', 'W3', 'W4', 'W5']);
    });

    it('hands out copies: mutating a returned event does not change the store', async () => {
      const s = streamId('copy');
      const stored = await store.append(s, 0, [event('A', { list: [1] })]);
      (stored[0]!.data as { list: number[] }).list.push(2);
      const read = await store.readStream(s);
      (read[0]!.data as { list: number[] }).list.push(3);
      expect((await store.readStream(s))[0]!.data).toEqual({ list: [1] });
    });

    describe('outbox', () => {
      it('lists appended events as pending publication, oldest append first, up to the limit', async () => {
        const a = streamId('a');
        const b = streamId('b');
        const a1 = await store.append(a, 0, [event('A1'), event('A2')]);
        const b1 = await store.append(b, 0, [event('B1')]);
        const a2 = await store.append(a, 2, [event('A3')]);
        const all = [...a1, ...b1, ...a2];
        expect(await store.pendingPublication(10)).toEqual(all);
        expect(await store.pendingPublication(2)).toEqual(all.slice(0, 2));
      });

      it('stops listing events once marked published, and ignores unknown ids', async () => {
        const s = streamId('pub');
        const stored = await store.append(s, 0, [event('A'), event('B'), event('C')]);
        await store.markPublished([stored[0]!.eventId, stored[2]!.eventId, randomUUID()]);
        expect(await store.pendingPublication(10)).toEqual([stored[1]]);
        await store.markPublished([stored[1]!.eventId, stored[1]!.eventId]);
        expect(await store.pendingPublication(10)).toEqual([]);
        await store.markPublished([]);
        // Publication does not remove events from their stream.
        expect(await store.readStream(s)).toEqual(stored);
      });

      it('keeps a failed append out of the outbox', async () => {
        const s = streamId('fail');
        const ok = await store.append(s, 0, [event('A')]);
        await expect(store.append(s, 0, [event('B')])).rejects.toBeInstanceOf(VersionConflictError);
        expect(await store.pendingPublication(10)).toEqual(ok);
      });
    });

    describe('persistence', () => {
      it('keeps acknowledged appends and publications across a close and reopen', async () => {
        const a = streamId('a');
        const b = streamId('b');
        const a1 = await store.append(a, 0, [event('A1'), event('A2')]);
        const b1 = await store.append(b, 0, [event('B1')]);
        await store.markPublished([a1[0]!.eventId]);
        await reopen();
        expect(await store.readStream(a)).toEqual(a1);
        expect(await store.readStream(b)).toEqual(b1);
        expect(await store.pendingPublication(10)).toEqual([a1[1], b1[0]]);
        await expect(store.append(a, 1, [event('stale')])).rejects.toBeInstanceOf(VersionConflictError);
        await store.append(a, 2, [event('A3')]);
        expect((await store.readStream(a)).map((e) => e.version)).toEqual([1, 2, 3]);
      });
    });

    it('refuses work after close', async () => {
      await store.close();
      closedByTest();
      await expect(store.append(streamId('late'), 0, [event('A')])).rejects.toThrow();
    });
  });
}
