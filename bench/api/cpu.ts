import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU seconds (user + system) each named process, or its main thread, has used so far (Linux /proc). */
export type CpuSample = Record<string, number>;

export interface CpuProbe {
  sample(): CpuSample;
  /** The product processes' main threads alone, where their JavaScript runs. */
  sampleMainThreads(): CpuSample;
  /** The names of the product's own processes (one, or each service of a cluster). */
  product: string[];
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU seconds, or with `thread` one of its threads' (its main thread's id is the pid). */
const cpuSeconds = (pid: number, thread?: number): number | null => {
  try {
    const stat = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    // After the command name (which may hold spaces), utime and stime are the 12th and 13th fields.
    const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
};

const sampleEach = (pids: Record<string, number>, read: (pid: number) => number | null): CpuSample => {
  const sample: CpuSample = {};
  for (const [name, pid] of Object.entries(pids)) {
    const value = read(pid);
    if (value !== null) sample[name] = value;
  }
  return sample;
};

/**
 * Watches the product's processes (name -> pid), the load generator (this process) and the bench's
 * NATS and Redis servers: on a machine whose cores they share, what each costs per request bounds
 * a throughput. Null where /proc cannot be read.
 */
export const cpuProbe = (product: Record<string, number>, servers: Record<string, number>): CpuProbe | null => {
  const pids: Record<string, number> = { ...product, 'load generator': process.pid, ...servers };
  if (Object.values(product).some((pid) => cpuSeconds(pid) === null)) return null;
  return {
    product: Object.keys(product),
    sample: () => sampleEach(pids, (pid) => cpuSeconds(pid)),
    sampleMainThreads: () => sampleEach(product, (pid) => cpuSeconds(pid, pid)),
  };
};

/** CPU seconds the product's processes have used so far, together. */
export const productSeconds = (probe: CpuProbe, sample: CpuSample): number =>
  probe.product.reduce((sum, name) => sum + (sample[name] ?? 0), 0);

/** CPU milliseconds per request of each process between two samples. */
export const perRequest = (before: CpuSample, after: CpuSample, requests: number): Record<string, number> =>
  Object.fromEntries(
    Object.keys(after)
      .filter((name) => name in before)
      .map((name) => [name, ((after[name]! - before[name]!) * 1000) / Math.max(1, requests)]),
  );

/** The CPU milliseconds per request of all the processes together, and the requests/s those allow on this machine's cores. */
export const capacity = (cpuMsPerRequest: Record<string, number>, cores = cpus().length): { cpuMs: number; perSecond: number } => {
  const cpuMs = Object.values(cpuMsPerRequest).reduce((a, b) => a + b, 0);
  return { cpuMs, perSecond: (cores * 1000) / cpuMs };
};
