import { cpuProbe, measureCpu } from './cpu';
import { type BenchInfra, startChild } from './servers';

export interface BusFloorResult {
  rps: number;
  /** CPU ms per message of the floor's process (`floor`) and of each server. */
  cpuMsPerMessage: Record<string, number>;
  mainThreadMsPerMessage: number;
  /** One message at a time: ms from the command to the first fragment. */
  firstFragment: { p50: number; p99: number; count: number };
}

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
    const drive = (runSeconds: number) => floor.ask<{ answered: number; rps: number }>('run', { concurrency, seconds: runSeconds });
    await drive(Math.min(2, seconds));
    const { result, cpuMsPerRequest, mainThreadMsPerRequest } = await measureCpu(cpu, () => drive(seconds));
    // The bench process only waits: the floor drives its messages itself.
    const { 'load generator': _idle, ...cpuMsPerMessage } = cpuMsPerRequest;
    const firstFragment = await floor.ask<BusFloorResult['firstFragment']>('sequential', { count: sequential });
    return { rps: result.rps, cpuMsPerMessage, mainThreadMsPerMessage: mainThreadMsPerRequest.floor ?? 0, firstFragment };
  } finally {
    await floor.stop();
  }
};
