import { describe, expect, it } from 'vitest';
import { drainListing } from './drain-listing';

describe('drainListing', () => {
  it('handles what the listing answers, batch by batch, until it is empty', async () => {
    const left = ['a', 'b', 'c', 'd', 'e'];
    const batches: string[][] = [];
    const handled = await drainListing(
      async () => left.slice(0, 2),
      (id) => id,
      async (batch) => {
        batches.push(batch);
        left.splice(0, batch.length);
      },
    );
    expect(handled).toBe(5);
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('stops at an item it handled that is still listed', async () => {
    let calls = 0;
    const handled = await drainListing(
      async () => ['stuck'],
      (id) => id,
      async () => {
        calls++;
      },
    );
    expect(handled).toBe(1);
    expect(calls).toBe(1);
  });
});
