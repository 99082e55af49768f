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
  const madeNow = (): T => {
    if (!made) throw new Error('made in beforeAll: use it inside a test or a hook');
    return made;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const value = Reflect.get(madeNow(), key);
      return typeof value === 'function' ? value.bind(made) : value;
    },
    set: (_, key, value) => Reflect.set(madeNow(), key, value),
  });
};
