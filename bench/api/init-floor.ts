import type { BenchInfra } from './bench-infra';
import { FLOOR_PROCESS } from './bus-floor';
import { startChild } from './child';
import { cpuProbe } from './cpu';
import { type LoadOptions, type LoadResult, load } from './load';
import { medianRound } from './rounds';

export interface InitFloorResult {
  floor: LoadResult;
  baseline: LoadResult;
  /** The rounds' lowest and highest ratio of the floor to bare Fastify, in %. */
  range: [number, number];
}

/**
 * Runs init-floor.server.ts and bare Fastify in turn, `rounds` rounds as the product's scenarios
 * are measured, with the init request the product got.
 */
export const measureInitFloor = async (
  { env, servers }: BenchInfra,
  dataDir: string,
  shapes: unknown,
  request: Omit<LoadOptions, 'url' | 'cpu'>,
  rounds: number,
): Promise<InitFloorResult | null> => {
  const floor = await startChild('init-floor.server.ts', { ...env, DATA_DIR: dataDir, BENCH_SHAPES: JSON.stringify(shapes) });
  try {
    const baseline = await startChild('baseline.server.ts', { BENCH_SHAPES: JSON.stringify(shapes) });
    try {
      const cpu = cpuProbe({ [FLOOR_PROCESS]: floor.process.pid! }, servers);
      if (!cpu) return null;
      const { round, range } = await medianRound(
        rounds,
        async () => ({ floor: await load({ url: floor.url, cpu, ...request }), baseline: await load({ url: baseline.url, ...request }) }),
        ({ floor: f, baseline: b }) => (100 * f.rps) / b.rps,
      );
      return { ...round, range };
    } finally {
      await baseline.stop();
    }
  } finally {
    await floor.stop();
  }
};
