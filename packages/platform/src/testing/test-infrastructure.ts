import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../clock/clock.port';
import { type Config, loadConfig } from '../config/config';
import type { Infrastructure } from '../infrastructure';
import { createInfrastructure } from '../infrastructure.factory';

export interface TestInfrastructure extends Infrastructure {
  dataDir: string;
  /** Closes every adapter and deletes the temporary DATA_DIR. */
  cleanup(): Promise<void>;
}

/**
 * Every port on its embedded adapter in a fresh temporary DATA_DIR (no URLs are read from the
 * environment). Pass `dataDir` to reopen a previous one (restart tests).
 */
export const createTestInfrastructure = async (
  options: { config?: Partial<Config>; clock?: Clock; dataDir?: string } = {},
): Promise<TestInfrastructure> => {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'palaver-test-')));
  const config = { ...loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false' }), ...options.config };
  const infra = await createInfrastructure(config, { clock: options.clock });
  return {
    ...infra,
    dataDir,
    async cleanup() {
      await infra.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
