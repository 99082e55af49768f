import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/clock.port';
import { describeKeyValueStoreContract } from '../testing/kv.contract';
import { InProcessKeyValueStore } from './in-process.kv';

describeKeyValueStoreContract('InProcessKeyValueStore', async () => {
  const clock = new ManualClock();
  return {
    kv: new InProcessKeyValueStore(clock),
    elapse: async (ms) => clock.advance(ms),
  };
});

describe('InProcessKeyValueStore', () => {
  it('refuses a ttl that is not positive', async () => {
    const kv = new InProcessKeyValueStore(new ManualClock());
    await expect(kv.set('k', 'v', 0)).rejects.toThrow(/ttlSeconds must be positive/);
    expect(await kv.get('k')).toBeNull();
  });

  it('drops expired keys even when nobody reads them again', async () => {
    const clock = new ManualClock();
    const kv = new InProcessKeyValueStore(clock);
    for (let i = 0; i < 600; i++) await kv.set(`old:${i}`, 'v', 1);
    clock.advance(2_000);
    for (let i = 0; i < 600; i++) await kv.set(`new:${i}`, 'v');
    const size = (kv as unknown as { entries: Map<string, unknown> }).entries.size;
    expect(size).toBeLessThan(1_200);
  });
});
