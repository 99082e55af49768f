/**
 * The search service as the benchmarks drive it: its Nest module on embedded adapters in a
 * temporary DATA_DIR (on /dev/shm when there is one, so fsyncs cost what a fast disk would),
 * called in-process without the transport, with a fresh project id for the content a benchmark creates.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Infrastructure } from '../packages/platform/src/index';
import { createTestInfrastructure } from '../packages/platform/src/testing/index';
import { createSearchContext, type SearchContext } from '../services/search/src/testing/search.context';

export type SearchServiceUnderTest = Omit<SearchContext, 'close'> & { infra: Infrastructure; projectId: string; close(): Promise<void> };

/** `override` replaces ports (e.g. an in-memory vector index for a corpus too large to log). */
export const startSearchServiceUnderTest = async (
  override: (infra: Infrastructure) => Infrastructure = (infra) => infra,
): Promise<SearchServiceUnderTest> => {
  const base = await createTestInfrastructure({
    dataDir: await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'palaver-bench-')),
  });
  const infra = override(base);
  const context = await createSearchContext(infra);
  const close = async () => {
    await context.close();
    if (infra.vectors !== base.vectors) await infra.vectors.close();
    await base.cleanup();
  };
  return { ...context, infra, projectId: randomUUID(), close };
};
