import type { BenchInfra } from './bench-infra';
import { startChild } from './child';
import { cpuProbe, perRequest } from './cpu';
import { settle } from './load';
import { percentile } from './ttft';

/** A floor's own process among the processes whose CPU it reports (the others are the servers). */
export const FLOOR_PROCESS = 'floor process';

export interface BusFloorResult {
  rps: number;
  /** CPU milliseconds per message of the floor's process and of each server. */
  cpuMsPerMessage: Record<string, number>;
  /** CPU milliseconds per message of the floor process's main thread, where its JavaScript runs. */
  mainThreadMsPerMessage: number;
  /** One message at a time: ms from the command to the first fragment. */
  firstFragment: { p50: number; p99: number; count: number };
}

const WARMUP = 20;

/**
 * Runs a floor's server (bus-floor.server.ts, or stack-floor.server.ts): a warm-up, then `seconds`
 * counted, CPU counted until it is idle again; then `sequential` messages one at a time, timed to
 * their first fragment.
 */
export const measureFloor = async (
  script: 'bus-floor.server.ts' | 'stack-floor.server.ts',
  { env, servers }: BenchInfra,
  dataDir: string,
  concurrency: number,
  seconds: number,
  sequential: number,
): Promise<BusFloorResult | null> => {
  const floor = await startChild(script, { ...env, DATA_DIR: dataDir });
  try {
    const cpu = cpuProbe({ product: floor.process.pid! }, servers);
    if (!cpu) return null;
    const drive = async (runSeconds: number) =>
      (await floor.ask<{ completed: number }>('run', 'ran', { concurrency, seconds: runSeconds })).completed;
    await drive(Math.min(2, seconds));
    await settle(cpu);
    const before = cpu.sample();
    const mainThreadBefore = cpu.sampleMainThreads();
    const started = performance.now();
    const completed = await drive(seconds);
    const elapsed = (performance.now() - started) / 1000;
    await settle(cpu);
    // The bench process only waits: the floor process drives the messages itself.
    const { product, 'load generator': _idle, ...serverCosts } = perRequest(before, cpu.sample(), completed);
    const mainThread = perRequest(mainThreadBefore, cpu.sampleMainThreads(), completed).product ?? 0;
    const { took } = await floor.ask<{ took: number[] }>('sequential', 'sequential', { count: sequential + WARMUP });
    const samples = took.slice(WARMUP).sort((a, b) => a - b);
    return {
      rps: completed / elapsed,
      cpuMsPerMessage: { [FLOOR_PROCESS]: product ?? 0, ...serverCosts },
      mainThreadMsPerMessage: mainThread,
      firstFragment: { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), count: samples.length },
    };
  } finally {
    await floor.stop();
  }
};
