import { AppError } from '@palaver/contracts';
import { afterEach, beforeEach } from 'vitest';
import { ManualClock } from '../clock/clock.port';
import type { Config } from '../config/config';
import type { RunningService } from '../service-bootstrap';
import { createTestInfrastructure, type TestInfrastructure } from './test-infrastructure';

export interface ServiceUnderTest {
  infra: TestInfrastructure;
  /** The infrastructure's clock, which only the test moves. */
  clock: ManualClock;
  service: RunningService;
}

/**
 * A service started by `start` on fresh test infrastructure (a manual clock, `config` over the
 * defaults) before each test, and closed with it after. Read its fields inside tests and hooks.
 */
export const useServiceUnderTest = (
  start: (infra: TestInfrastructure) => Promise<RunningService>,
  config: Partial<Config> = {},
): ServiceUnderTest => {
  const under = {} as ServiceUnderTest;
  beforeEach(async () => {
    under.clock = new ManualClock();
    under.infra = await createTestInfrastructure({ clock: under.clock, config });
    under.service = await start(under.infra);
  });
  afterEach(async () => {
    await under.service.close();
    await under.infra.cleanup();
  });
  return under;
};

/** The AppError `promise` rejects with; any other outcome fails the test. */
export const rejection = async (promise: Promise<unknown>): Promise<AppError> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
};
