import type { BenchInfra } from './bench-infra';
import { startChild } from './child';
import { cpuProbe, perRequest } from './cpu';
import { settle } from './load';
import { percentile } from './ttft';

export interface BusFloorResult {
  rps: number;
  /** CPU ms per message of the floor's process (`floor`) and of each server. */
  cpuMsPerMessage: Record<string, number>;
  /** CPU ms per message of the floor process's main thread. */
  mainThreadMsPerMessage: number;
  /** One message at a time: ms from the command to the first fragment. */
  firstFragment: { p50: number; p99: number; count: number };
}

const WARMUP = 20;

/** Runs bus-floor.server.ts: a warm-up, `seconds` counted (CPU until idle again), then `sequential` messages one at a time. */
export const measureBusFloor = async (
  { env, servers }: BenchInfra,
  dataDir: string,
  concurrency: number,
  seconds: number,
  sequential: number,
): Promise<BusFloorResult | null> => {
  const floor = await startChild('bus-floor.server.ts', { ...env, DATA_DIR: dataDir });
  try {
    const cpu = cpuProbe({ floor: floor.process.pid! }, servers);
    if (!cpu) return null;
    const drive = async (runSeconds: number) =>
      (await floor.ask<{ completed: number }>('run', 'ran', { concurrency, seconds: runSeconds })).completed;
    await drive(Math.min(2, seconds));
    await settle(cpu);
    const before = cpu.sample();
    const mainBefore = cpu.sampleMainThreads();
    const started = performance.now();
    const completed = await drive(seconds);
    const elapsed = (performance.now() - started) / 1000;
    await settle(cpu);
    // The bench process only waits: the floor drives its messages itself.
    const { 'load generator': _idle, ...cpuMsPerMessage } = perRequest(before, cpu.sample(), completed);
    const mainThreadMsPerMessage = perRequest(mainBefore, cpu.sampleMainThreads(), completed).floor ?? 0;
    const { took } = await floor.ask<{ took: number[] }>('sequential', 'sequential', { count: sequential + WARMUP });
    const samples = took.slice(WARMUP).sort((a, b) => a - b);
    return {
      rps: completed / elapsed,
      cpuMsPerMessage,
      mainThreadMsPerMessage,
      firstFragment: { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), count: samples.length },
    };
  } finally {
    await floor.stop();
  }
};
