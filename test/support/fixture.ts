import { afterAll, beforeAll } from 'vitest';

/**
 * What `setUp` makes before the tests of a describe block (an app, a fake server, a project),
 * torn down with `tearDown` after them (in the reverse order of the calls, as vitest runs afterAll
 * hooks). The value stands for the one made: read it inside tests and hooks only, so fixtures can
 * be declared in order, each using the ones before.
 */
export const useFixture = <T extends object>(
  setUp: () => Promise<T>,
  tearDown: (made: T) => Promise<unknown> = async () => {},
  timeoutMs?: number,
): T => {
  let made: T | undefined;
  beforeAll(async () => {
    made = await setUp();
  }, timeoutMs);
  afterAll(async () => {
    if (made) await tearDown(made);
  }, timeoutMs);
  return lazy(() => {
    if (!made) throw new Error('made in beforeAll: use it inside a test or a hook');
    return made;
  });
};

/** Stands for what `get` returns each time it is used (not when it is declared): a part of a fixture, say. */
export const lazy = <T extends object>(get: () => T): T =>
  new Proxy({} as T, {
    get: (_, key) => {
      const target = get();
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(get(), key, value),
  });
