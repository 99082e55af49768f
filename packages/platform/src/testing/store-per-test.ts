import { afterEach, beforeEach } from 'vitest';

/** What a store contract is given: a store over fresh, empty storage of its own. */
export interface StoreFixture<S> {
  /** Opens the store under test; called again after `close()` it reopens the same data. */
  open(): Promise<S>;
  /** Removes what the test left behind (the store is closed by then). */
  cleanup?(): Promise<void>;
}

/**
 * The hooks every store contract shares: before each test a fresh fixture and its store (handed
 * to `onOpen`, also after a reopen); after it the store is closed, unless the test closed it
 * itself, and the fixture cleaned up.
 */
export const storePerTest = <S extends { close(): Promise<void> }>(factory: () => Promise<StoreFixture<S>>, onOpen: (store: S) => void) => {
  let fixture: StoreFixture<S>;
  let store: S;
  let open = false;
  const openStore = async () => {
    store = await fixture.open();
    open = true;
    onOpen(store);
  };

  beforeEach(async () => {
    fixture = await factory();
    await openStore();
  });

  afterEach(async () => {
    if (open) await store.close();
    await fixture.cleanup?.();
  });

  return {
    /** Closes the store and opens it again over the same data. */
    reopen: async () => {
      await store.close();
      await openStore();
    },
    /** The test closed the store itself: it is not closed again after the test. */
    closedByTest: () => {
      open = false;
    },
  };
};
