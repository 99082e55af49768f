import { ManualClock } from '@palaver/platform';
import { afterEach, beforeEach } from 'vitest';
import { type SearchHarness, startSearchHarness } from './search.harness';

/** Where each test's clock starts. */
const TEST_START = '2026-03-01T10:00:00.000Z';

export interface SearchPerTest {
  /** The running test's own search service (a fresh one each test). */
  readonly h: SearchHarness;
  /** Its manual clock, at TEST_START when the test starts. */
  readonly clock: ManualClock;
}

/**
 * Gives each test of the file a fresh search service on a manual clock, closed after it. Call it
 * before the file's own `beforeEach`, which then finds the service started.
 */
export const searchPerTest = (): SearchPerTest => {
  const current = {} as { h: SearchHarness; clock: ManualClock };
  beforeEach(async () => {
    current.clock = new ManualClock(new Date(TEST_START));
    current.h = await startSearchHarness({ clock: current.clock });
  });
  afterEach(() => current.h.close());
  return current;
};
