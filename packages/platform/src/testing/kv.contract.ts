import { randomUUID } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../kv/kv.port';

export interface KvFixture {
  kv: KeyValueStore;
  /** Lets `ms` of the store's time pass: a manual clock moved, or a real wait. */
  elapse(ms: number): Promise<void>;
  /** Removes what the test left behind (after `kv.close()`). */
  cleanup?(): Promise<void>;
}

/** The behaviour every KeyValueStore adapter shares; `factory` gives a fresh, connected instance. */
export function describeKeyValueStoreContract(adapterName: string, factory: () => Promise<KvFixture>): void {
  describe(`KeyValueStore contract: ${adapterName}`, () => {
    let fixture: KvFixture;
    let kv: KeyValueStore;
    const key = () => `k:${randomUUID()}`;

    beforeEach(async () => {
      fixture = await factory();
      kv = fixture.kv;
    });

    afterEach(async () => {
      await kv.close();
      await fixture.cleanup?.();
    });

    it('answers null for a key never set', async () => {
      expect(await kv.get(key())).toBeNull();
    });

    it('sets, overwrites and deletes a value', async () => {
      const k = key();
      await kv.set(k, 'one');
      expect(await kv.get(k)).toBe('one');
      await kv.set(k, 'two');
      expect(await kv.get(k)).toBe('two');
      await kv.del(k);
      expect(await kv.get(k)).toBeNull();
      await kv.del(k);
    });

    it('keeps keys apart', async () => {
      const a = key();
      const b = key();
      await kv.set(a, 'A');
      await kv.set(b, 'B');
      await kv.del(a);
      expect(await kv.get(a)).toBeNull();
      expect(await kv.get(b)).toBe('B');
    });

    it('sets a value if absent: one of many claims made at once wins, and an expired claim can be made again', async () => {
      const k = key();
      const claims = await Promise.all(Array.from({ length: 20 }, (_, n) => kv.setIfAbsent(k, `claim-${n}`, 1)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await kv.get(k)).toBe(`claim-${claims.indexOf(true)}`);
      expect(await kv.setIfAbsent(k, 'late', 1)).toBe(false);
      await fixture.elapse(1_100);
      expect(await kv.setIfAbsent(k, 'again', 60)).toBe(true);
      expect(await kv.get(k)).toBe('again');
    });

    it('expires a value set with a ttl', async () => {
      const k = key();
      await kv.set(k, 'short-lived', 1);
      await fixture.elapse(500);
      expect(await kv.get(k)).toBe('short-lived');
      await fixture.elapse(700);
      expect(await kv.get(k)).toBeNull();
    });

    it('keeps forever a value set again without a ttl', async () => {
      const k = key();
      await kv.set(k, 'first', 1);
      await kv.set(k, 'second');
      await fixture.elapse(1_200);
      expect(await kv.get(k)).toBe('second');
    });

    it('extends the expiry with expire', async () => {
      const k = key();
      await kv.set(k, 'session', 1);
      await fixture.elapse(500);
      expect(await kv.expire(k, 1)).toBe(true);
      await fixture.elapse(500);
      expect(await kv.get(k)).toBe('session');
      await fixture.elapse(700);
      expect(await kv.get(k)).toBeNull();
    });

    it('gives an expiry to a key that had none', async () => {
      const k = key();
      await kv.set(k, 'v');
      expect(await kv.expire(k, 1)).toBe(true);
      await fixture.elapse(1_200);
      expect(await kv.get(k)).toBeNull();
    });

    it('increments a counter from zero, keeping the expiry of its first increment', async () => {
      const k = key();
      expect(await kv.increment(k, 1)).toBe(1);
      await fixture.elapse(600);
      expect(await kv.increment(k, 1)).toBe(2);
      expect(await kv.increment(key(), 1)).toBe(1);
      await fixture.elapse(600);
      expect(await kv.get(k)).toBeNull();
      expect(await kv.increment(k, 1)).toBe(1);
    });

    it('increments by a given amount, negative included', async () => {
      const k = key();
      expect(await kv.increment(k, 10, 3)).toBe(3);
      expect(await kv.increment(k, 10, -1)).toBe(2);
      expect(await kv.get(k)).toBe('2');
    });

    it('answers false to expire on a missing or expired key', async () => {
      expect(await kv.expire(key(), 10)).toBe(false);
      const k = key();
      await kv.set(k, 'v', 1);
      await fixture.elapse(1_200);
      expect(await kv.expire(k, 10)).toBe(false);
      expect(await kv.get(k)).toBeNull();
    });

    describe('rate limiter', () => {
      const limiter = (points: number, durationSeconds: number) =>
        kv.rateLimiter({ keyPrefix: `rl:${randomUUID()}`, points, durationSeconds });

      it('consumes points and reports what remains', async () => {
        const rl = limiter(3, 10);
        const results = [await rl.consume('p1'), await rl.consume('p1'), await rl.consume('p1')];
        expect(results.map((r) => r.remainingPoints)).toEqual([2, 1, 0]);
        expect(results.map((r) => r.consumedPoints)).toEqual([1, 2, 3]);
      });

      it('rejects past its points with msBeforeNext within the window', async () => {
        const rl = limiter(2, 10);
        await rl.consume('p1');
        await rl.consume('p1');
        const rejection = await rl.consume('p1').then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(rejection).toBeInstanceOf(RateLimiterRes);
        const res = rejection as RateLimiterRes;
        expect(res.remainingPoints).toBe(0);
        expect(res.msBeforeNext).toBeGreaterThan(0);
        expect(res.msBeforeNext).toBeLessThanOrEqual(10_000);
      });

      it('counts each key on its own, and each limiter on its own', async () => {
        const rl = limiter(1, 10);
        await rl.consume('p1');
        await expect(rl.consume('p1')).rejects.toBeInstanceOf(RateLimiterRes);
        expect((await rl.consume('p2')).remainingPoints).toBe(0);
        expect((await limiter(1, 10).consume('p1')).remainingPoints).toBe(0);
      });

      it('gives the points back after the window', async () => {
        const rl = limiter(1, 1);
        await rl.consume('p1');
        await expect(rl.consume('p1')).rejects.toBeInstanceOf(RateLimiterRes);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        expect((await rl.consume('p1')).remainingPoints).toBe(0);
      });
    });
  });
}
