import { percentile } from '../common';
import { cpuProbe, measureCpu } from './cpu';
import type { BenchInfra } from './servers';
import { startChild } from './servers';

export interface BusFloorResult {
  rps: number;
  /** CPU ms per message of the floor's process (`floor`) and of each server. */
  cpuMsPerMessage: Record<string, number>;
  mainThreadMsPerMessage: number;
  /** One message at a time: ms from the command to the first fragment. */
  firstFragment: { p50: number; p99: number; count: number };
}

const WARMUP = 20;

/** Runs bus-floor.server.ts: a warm-up, `seconds` counted, then `sequential` messages one at a time. */
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
    const drive = async (runSeconds: number) => {
      const started = performance.now();
      const { completed } = await floor.ask<{ completed: number }>('run', { concurrency, seconds: runSeconds });
      return { answered: completed, rps: (1000 * completed) / (performance.now() - started) };
    };
    await drive(Math.min(2, seconds));
    const { result, cpuMsPerRequest, mainThreadMsPerRequest } = await measureCpu(cpu, () => drive(seconds));
    // The bench process only waits: the floor drives its messages itself.
    const { 'load generator': _idle, ...cpuMsPerMessage } = cpuMsPerRequest;
    const { took } = await floor.ask<{ took: number[] }>('sequential', { count: sequential + WARMUP });
    const samples = took.slice(WARMUP);
    return {
      rps: result.rps,
      cpuMsPerMessage,
      mainThreadMsPerMessage: mainThreadMsPerRequest.floor ?? 0,
      firstFragment: { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), count: samples.length },
    };
  } finally {
    await floor.stop();
  }
};
