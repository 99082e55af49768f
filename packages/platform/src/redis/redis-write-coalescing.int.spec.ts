import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { coalesceRedisWrites } from './redis-write-coalescing';

const available = await infraAvailable('redis');

/** Counts what reaches the socket's own writes (one `write(2)` each on a local socket). */
const countWrites = (redis: Redis): { count: number } => {
  type Write = (...args: unknown[]) => unknown;
  const stream = (redis as unknown as { stream: Socket & { _write: Write; _writev: Write } }).stream;
  const writes = { count: 0 };
  const write = stream._write.bind(stream);
  const writev = stream._writev.bind(stream);
  stream._write = (...args: unknown[]) => {
    writes.count += 1;
    return write(...args);
  };
  stream._writev = (...args: unknown[]) => {
    writes.count += 1;
    return writev(...args);
  };
  return writes;
};

/** Sends `count` INCRs, one per microtask checkpoint, as callbacks that each send one command do. */
const incrAcrossMicrotasks = async (redis: Redis, key: string, count: number): Promise<number[]> => {
  const replies: Array<Promise<number>> = [];
  for (let i = 0; i < count; i++) {
    replies.push(redis.incr(key));
    await Promise.resolve();
  }
  return Promise.all(replies);
};

describe.skipIf(!available)(infraSuiteTitle('coalesceRedisWrites', 'redis', available), () => {
  const clients: Redis[] = [];
  const client = async (coalesced: boolean): Promise<Redis> => {
    const redis = new Redis(infraUrl('redis'), { lazyConnect: true });
    clients.push(redis);
    if (coalesced) coalesceRedisWrites(redis);
    await redis.connect();
    return redis;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((redis) => redis.quit().catch(() => undefined)));
  });

  it('writes what one turn sends in two writes instead of one per command, in order', async () => {
    const results: Record<string, { writes: number; replies: number[] }> = {};
    for (const coalesced of [false, true]) {
      const redis = await client(coalesced);
      const key = `test:coalesce:${coalesced}:${Date.now()}`;
      const writes = countWrites(redis);
      const replies = await incrAcrossMicrotasks(redis, key, 20);
      results[String(coalesced)] = { writes: writes.count, replies };
      await redis.del(key);
    }
    const expected = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(results.false).toEqual({ writes: 20, replies: expected });
    // The first at once, the 19 after it at the end of the turn.
    expect(results.true).toEqual({ writes: 2, replies: expected });
  });

  it('writes the first command of a turn at once, so a lone command waits for nothing', async () => {
    const redis = await client(true);
    const writes = countWrites(redis);
    const reply = redis.ping();
    await Promise.resolve(); // one microtask checkpoint, no turn of the loop
    expect(writes.count).toBe(1);
    expect(await reply).toBe('PONG');
  });

  it('coalesces the socket of a reconnect too', async () => {
    const redis = await client(true);
    const first = (redis as unknown as { stream: Socket }).stream;
    const ready = new Promise((resolve) => redis.once('ready', resolve));
    first.destroy(); // the connection drops; ioredis connects again on a new socket
    await ready;
    expect((redis as unknown as { stream: Socket }).stream).not.toBe(first);
    const writes = countWrites(redis);
    const key = `test:coalesce:reconnect:${Date.now()}`;
    expect(await incrAcrossMicrotasks(redis, key, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(writes.count).toBe(2);
    await redis.del(key);
    await nextTurn();
  });
});
