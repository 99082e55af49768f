import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATA_KEY_BYTES, type KeyStore } from '../key-store/key-store.port';
import { type StoreFixture, storePerTest } from './store-per-test';

export type KeyStoreFixture = StoreFixture<KeyStore>;

/** The behaviour every KeyStore adapter shares. */
export function describeKeyStoreContract(adapterName: string, factory: () => Promise<KeyStoreFixture>): void {
  describe(`KeyStore contract: ${adapterName}`, () => {
    let store: KeyStore;
    const { reopen } = storePerTest(factory, (opened) => {
      store = opened;
    });
    const id = () => `k-${randomUUID()}`;

    it('makes a random 256-bit key on first use and answers the same key after', async () => {
      const a = id();
      const key = await store.createOrGet(a);
      expect(key.length).toBe(DATA_KEY_BYTES);
      expect((await store.createOrGet(a)).equals(key)).toBe(true);
      expect((await store.get(a))?.equals(key)).toBe(true);
      const other = await store.createOrGet(id());
      expect(other.equals(key)).toBe(false);
    });

    it('answers null for a key never made', async () => {
      expect(await store.get(id())).toBeNull();
    });

    it('gives concurrent first calls one and the same key', async () => {
      const a = id();
      const keys = await Promise.all(Array.from({ length: 10 }, () => store.createOrGet(a)));
      for (const key of keys) expect(key.equals(keys[0]!)).toBe(true);
    });

    it('deletes keys for good, ignoring absent ones, and keeps the others', async () => {
      const [a, b, c] = [id(), id(), id()];
      await store.createOrGet(a);
      await store.createOrGet(b);
      const keep = await store.createOrGet(c);
      await store.delete([a, b, id()]);
      expect(await store.get(a)).toBeNull();
      expect(await store.get(b)).toBeNull();
      expect((await store.get(c))?.equals(keep)).toBe(true);
      await store.delete([]);
      const fresh = await store.createOrGet(a);
      expect(fresh.length).toBe(DATA_KEY_BYTES);
    });

    it('keeps keys and deletions across a reopen', async () => {
      const [a, b] = [id(), id()];
      const key = await store.createOrGet(a);
      await store.createOrGet(b);
      await store.delete([b]);
      await reopen();
      expect((await store.get(a))?.equals(key)).toBe(true);
      expect(await store.get(b)).toBeNull();
    });
  });
}
