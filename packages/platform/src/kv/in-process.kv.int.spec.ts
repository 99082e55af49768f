import { appendFile, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../clock/clock.port';
import { CorruptLogError } from '../storage/jsonl-log';
import { describeKeyValueStoreContract } from '../testing/kv.contract';
import { InProcessKeyValueStore } from './in-process.kv';

describeKeyValueStoreContract('InProcessKeyValueStore (memory only)', async () => {
  const clock = new ManualClock();
  return {
    kv: new InProcessKeyValueStore(clock),
    elapse: async (ms) => clock.advance(ms),
  };
});

describeKeyValueStoreContract('InProcessKeyValueStore (JSONL in a directory)', async () => {
  const clock = new ManualClock();
  const dir = await mkdtemp(join(tmpdir(), 'palaver-kv-'));
  return {
    kv: await InProcessKeyValueStore.open(dir, clock),
    elapse: async (ms) => clock.advance(ms),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('InProcessKeyValueStore', () => {
  it('refuses a ttl that is not positive', async () => {
    const kv = new InProcessKeyValueStore(new ManualClock());
    await expect(kv.set('k', 'v', 0)).rejects.toThrow(/ttlSeconds must be positive/);
    await expect(kv.expire('k', -1)).rejects.toThrow(/ttlSeconds must be positive/);
    expect(await kv.get('k')).toBeNull();
  });

  it('drops expired keys even when nobody reads them again', async () => {
    const clock = new ManualClock();
    const kv = new InProcessKeyValueStore(clock);
    for (let i = 0; i < 600; i++) await kv.set(`old:${i}`, 'v', 1);
    clock.advance(2_000);
    for (let i = 0; i < 600; i++) await kv.set(`new:${i}`, 'v');
    const size = (kv as unknown as { entries: Map<string, unknown> }).entries.size;
    expect(size).toBe(600);
  });

  it('applies writes in call order, even when they are not awaited one by one', async () => {
    const kv = new InProcessKeyValueStore(new ManualClock());
    const [, , , extended] = await Promise.all([kv.set('k', '1'), kv.del('k'), kv.set('k', '2'), kv.expire('k', 5)]);
    expect(extended).toBe(true);
    expect(await kv.get('k')).toBe('2');
  });
});

describe('InProcessKeyValueStore on disk', () => {
  let dir: string;
  let clock: ManualClock;
  const file = () => join(dir, 'kv.jsonl');
  const lines = async () => (await readFile(file(), 'utf8')).split('\n').filter((line) => line !== '');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-kv-'));
    clock = new ManualClock();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps values and expiries across a reopen, and forgets what expired while closed', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock);
    await kv.set('forever', 'a');
    await kv.set('ten-seconds', 'b', 10);
    await kv.set('one-second', 'c', 1);
    await kv.set('deleted', 'd');
    await kv.del('deleted');
    await kv.set('extended', 'e', 1);
    expect(await kv.expire('extended', 10)).toBe(true);
    await kv.close();

    clock.advance(2_000);
    const reopened = await InProcessKeyValueStore.open(dir, clock);
    expect(await reopened.get('forever')).toBe('a');
    expect(await reopened.get('ten-seconds')).toBe('b');
    expect(await reopened.get('extended')).toBe('e');
    expect(await reopened.get('one-second')).toBeNull();
    expect(await reopened.get('deleted')).toBeNull();
    // The expiries are absolute: they run out at the same time as before the reopen.
    clock.advance(7_900);
    expect(await reopened.get('ten-seconds')).toBe('b');
    clock.advance(200);
    expect(await reopened.get('ten-seconds')).toBeNull();
    expect(await reopened.get('extended')).toBeNull();
    expect(await reopened.get('forever')).toBe('a');
    await reopened.close();
  });

  it('has a write on disk when it resolves', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock);
    await kv.set('session:1', 'visitor-1', 60);
    expect(await lines()).toEqual([
      JSON.stringify({ op: 'set', key: 'session:1', value: 'visitor-1', expiresAt: clock.now().getTime() + 60_000 }),
    ]);
    await kv.del('session:1');
    expect(await lines()).toHaveLength(2);
    await kv.close();
  });

  it('writes what one turn of the event loop writes in one write of the log, in call order', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock);
    const probe = await open(join(dir, 'probe'), 'a');
    await probe.close();
    const writes = vi.spyOn(Object.getPrototypeOf(probe) as { write(...args: unknown[]): Promise<unknown> }, 'write');
    try {
      await Promise.all([...Array.from({ length: 20 }, (_, n) => kv.set(`session:${n}`, 'v', 60)), kv.del('session:3')]);
      expect(writes.mock.calls.length).toBe(1);
    } finally {
      writes.mockRestore();
    }
    await kv.close();
    const reopened = await InProcessKeyValueStore.open(dir, clock);
    expect(await reopened.get('session:3')).toBeNull();
    expect(await reopened.get('session:19')).toBe('v');
    await reopened.close();
  });

  it('compacts the log on open down to the live keys', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock);
    for (let i = 0; i < 20; i++) await kv.set('counter', String(i));
    for (let i = 0; i < 10; i++) await kv.set(`short:${i}`, 'v', 1);
    await kv.set('gone', 'v');
    await kv.del('gone');
    await kv.close();
    expect(await lines()).toHaveLength(32);

    clock.advance(1_000);
    const reopened = await InProcessKeyValueStore.open(dir, clock);
    expect(await lines()).toEqual([JSON.stringify({ op: 'set', key: 'counter', value: '19' })]);
    await reopened.set('next', 'n');
    await reopened.close();

    const third = await InProcessKeyValueStore.open(dir, clock);
    expect(await third.get('counter')).toBe('19');
    expect(await third.get('next')).toBe('n');
    await third.close();
  });

  it('compacts the log while running once it outgrows the live keys', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock, { compactionSlack: 10 });
    for (let i = 0; i < 60; i++) await kv.expire('missing', 1);
    for (let i = 0; i < 60; i++) await kv.set('session', String(i), 30);
    await kv.set('other', 'o');
    expect((await lines()).length).toBeLessThanOrEqual(2 * 2 + 10);
    await kv.close();

    const reopened = await InProcessKeyValueStore.open(dir, clock);
    expect(await reopened.get('session')).toBe('59');
    expect(await reopened.get('other')).toBe('o');
    clock.advance(30_000);
    expect(await reopened.get('session')).toBeNull();
    await reopened.close();
  });

  it('ignores a torn last line (a write cut short by kill -9) and keeps working', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock);
    await kv.set('a', '1');
    await kv.set('b', '2', 60);
    await kv.close();
    await appendFile(file(), '{"op":"set","key":"c","val');

    const reopened = await InProcessKeyValueStore.open(dir, clock);
    expect(await reopened.get('a')).toBe('1');
    expect(await reopened.get('b')).toBe('2');
    expect(await reopened.get('c')).toBeNull();
    await reopened.set('c', '3');
    await reopened.close();

    const third = await InProcessKeyValueStore.open(dir, clock);
    expect([await third.get('a'), await third.get('b'), await third.get('c')]).toEqual(['1', '2', '3']);
    await third.close();
  });

  it('refuses to open a log damaged before its last line', async () => {
    await writeFile(file(), `{"op":"set","key":"a"\n${JSON.stringify({ op: 'set', key: 'b', value: '2' })}\n`);
    await expect(InProcessKeyValueStore.open(dir, clock)).rejects.toBeInstanceOf(CorruptLogError);
  });

  it('refuses writes once closed', async () => {
    const kv = await InProcessKeyValueStore.open(dir, clock);
    await kv.close();
    await expect(kv.set('k', 'v')).rejects.toThrow(/closed/);
  });
});
