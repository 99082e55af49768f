import { CONVERSATION_CHANGES_CHANNEL } from '@palaver/contracts';
import { InProcessPubSub } from '@palaver/platform';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { visitorChanges } from './announcements';
import { DEFAULT_VISITOR_READ_CACHE, VisitorReadCache } from './visitor-read-cache';

const ada = { projectId: '00000000-0000-4000-8000-000000000001', visitorId: '00000000-0000-4000-8000-00000000000a' };
const bob = { projectId: ada.projectId, visitorId: '00000000-0000-4000-8000-00000000000b' };

describe('VisitorReadCache', () => {
  const pubsub = new InProcessPubSub();
  const changes = visitorChanges();
  let cache: VisitorReadCache;
  let loads = 0;
  const load = (value: string) => async () => {
    loads += 1;
    return { value };
  };
  const start = async (options: Partial<typeof DEFAULT_VISITOR_READ_CACHE> = {}) => {
    loads = 0;
    cache = new VisitorReadCache({ ...DEFAULT_VISITOR_READ_CACHE, ttlMs: 60_000, maxVisitors: 10, maxReadsPerVisitor: 2, ...options });
    await changes.start(pubsub);
    cache.follow(changes);
  };
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    cache.stop();
    await changes.stop();
  });
  /** The kept JSON, read back. */
  const read = async (visitor: typeof ada, key: string, loader: () => Promise<unknown>) =>
    JSON.parse(await cache.readJson(visitor, key, loader));

  it('answers the JSON of the load, and keeps it as such', async () => {
    await start();
    const answer = { object: 'list', data: [{ id: 'c1', at: new Date(0) }], none: undefined };
    expect(await cache.readJson(ada, 'list', async () => answer)).toBe(JSON.stringify(answer));
    expect(await cache.readJson(ada, 'list', async () => ({ other: true }))).toBe(JSON.stringify(answer));
  });

  it('keeps each read of each visitor until a change of that visitor is announced', async () => {
    await start();
    expect(await read(ada, 'list', load('a1'))).toEqual({ value: 'a1' });
    expect(await read(ada, 'list', load('a2'))).toEqual({ value: 'a1' });
    expect(await read(bob, 'list', load('b1'))).toEqual({ value: 'b1' });
    expect(loads).toBe(2);

    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, ada);
    expect(await read(ada, 'list', load('a3'))).toEqual({ value: 'a3' });
    expect(await read(bob, 'list', load('b2'))).toEqual({ value: 'b1' });
    expect(loads).toBe(3);
  });

  it('returns but does not keep an answer fetched while its visitor changed', async () => {
    await start();
    let finish!: () => void;
    const slow = read(ada, 'list', async () => {
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return 'before the change';
    });
    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, ada);
    finish();
    expect(await slow).toBe('before the change');
    expect(await read(ada, 'list', async () => 'after the change')).toBe('after the change');
  });

  it('keeps no errors, a bounded number of reads per visitor, and ignores malformed announcements', async () => {
    await start();
    await expect(read(ada, 'get', () => Promise.reject(new Error('not found')))).rejects.toThrow('not found');
    expect(await read(ada, 'get', async () => 'found')).toBe('found');
    await read(ada, 'page 2', load('p2'));
    await read(ada, 'page 3', load('p3'));
    await read(ada, 'page 3', load('p3 again'));
    expect(loads).toBe(3); // `get` and `page 2` are kept, `page 3` is over the bound

    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, { projectId: ada.projectId });
    expect(await read(ada, 'get', async () => 'refetched')).toBe('found');
  });

  it('forgets answers after the TTL, should an announcement be lost', async () => {
    // The cache ages entries by `performance.now()` (and debounces it with a timer): both on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(performance, 'now').mockImplementation(() => Date.now());
    await start({ ttlMs: 30_000 });
    await read(ada, 'list', load('first'));
    vi.advanceTimersByTime(29_999);
    expect(await read(ada, 'list', load('second'))).toEqual({ value: 'first' });
    vi.advanceTimersByTime(2);
    expect(await read(ada, 'list', load('second'))).toEqual({ value: 'second' });
  });

  it('keeps no answer longer than the per-answer bound, and drops the least recently read visitors past the total', async () => {
    await start({ maxAnswerBytes: 100, maxBytes: 250 });
    const long = 'x'.repeat(200);
    await read(ada, 'get', async () => long);
    expect(await read(ada, 'get', async () => 'fetched again')).toBe('fetched again');

    const answer = 'y'.repeat(90); // 92 bytes of JSON each: two visitors fit, a third pushes out the oldest
    await read(ada, 'list', async () => answer);
    await read(bob, 'list', async () => answer);
    expect(await read(ada, 'list', async () => 'reloaded')).toBe(answer);
    const carl = { ...bob, visitorId: '00000000-0000-4000-8000-00000000000c' };
    await read(carl, 'list', async () => answer);
    expect(await read(bob, 'list', async () => 'reloaded')).toBe('reloaded');
  });
});
