import type { BenchInfra } from './bench-infra';
import { startChild } from './child';
import { cpuProbe, perRequest } from './cpu';
import { settle } from './load';

export interface BusFloorResult {
  rps: number;
  /** CPU milliseconds per message of the floor's process and of each server. */
  cpuMsPerMessage: Record<string, number>;
}

/** Runs bus-floor.server.ts: a warm-up, then `seconds` counted, CPU counted until it is idle again. */
export const measureBusFloor = async (
  { env, servers }: BenchInfra,
  dataDir: string,
  concurrency: number,
  seconds: number,
): Promise<BusFloorResult | null> => {
  const floor = await startChild('bus-floor.server.ts', { ...env, DATA_DIR: dataDir });
  try {
    const cpu = cpuProbe(floor.process.pid!, servers);
    if (!cpu) return null;
    const drive = (runSeconds: number) =>
      new Promise<number>((resolve) => {
        const listen = (message: { cmd: string; completed: number }) => {
          if (message.cmd !== 'ran') return;
          floor.process.off('message', listen);
          resolve(message.completed);
        };
        floor.process.on('message', listen);
        floor.process.send({ cmd: 'run', concurrency, seconds: runSeconds });
      });
    await drive(Math.min(2, seconds));
    await settle(cpu);
    const before = cpu.sample();
    const started = performance.now();
    const completed = await drive(seconds);
    const elapsed = (performance.now() - started) / 1000;
    await settle(cpu);
    // The bench process only waits: the floor process drives the messages itself.
    const { product, 'load generator': _idle, ...serverCosts } = perRequest(before, cpu.sample(), completed);
    return { rps: completed / elapsed, cpuMsPerMessage: { 'floor process': product ?? 0, ...serverCosts } };
  } finally {
    await floor.stop();
  }
};
