import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The bare Fastify baseline's name among the processes a probe watches. */
export const BASELINE_PROCESS = 'bare Fastify';

/** CPU seconds (user + system) each named process has used so far, from /proc (Linux). */
export type CpuSample = Record<string, number>;

export interface CpuProbe {
  sample(): CpuSample;
  /**
   * The CPU seconds of each product process's main thread alone, where its JavaScript runs (the
   * process's figure also counts the collector's and the thread pool's threads).
   */
  sampleMainThreads(): CpuSample;
  /**
   * How many times each product process's main thread has been taken off its core while it still
   * had work (involuntary context switches): another process, such as a server sharing the cores,
   * ran instead.
   */
  samplePreemptions(): CpuSample;
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
    // The fields after the command name (which may hold spaces) start at field 3: utime, stime are 14 and 15.
    const stat = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
};

/** A process's main thread's involuntary context switches so far, or null when it is gone. */
const mainThreadPreemptions = (pid: number): number | null => {
  try {
    const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
    const match = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
};

/** The pid of the oldest process of that name on this machine (a shared server), if any. */
export const localServerPid = (name: string): number | null => {
  try {
    return Number(execFileSync('pgrep', ['-o', '-x', name]).toString().trim()) || null;
  } catch {
    return null;
  }
};

/** One reading per named process; a process that is gone is left out. */
const sampleEach = (pids: Record<string, number>, read: (pid: number) => number | null): CpuSample => {
  const sample: CpuSample = {};
  for (const [name, pid] of Object.entries(pids)) {
    const value = read(pid);
    if (value !== null) sample[name] = value;
  }
  return sample;
};

/**
 * Watches the product's processes (`product`: name -> pid), the load generator (this process) and
 * the NATS and Redis servers when they run on this machine (`servers`: name -> pid): what each
 * costs per answered request is what bounds a throughput on a machine whose cores they share.
 * Processes it cannot see are left out.
 */
export const cpuProbe = (product: Record<string, number>, servers: Record<string, number>): CpuProbe | null => {
  const pids: Record<string, number> = { ...product, 'load generator': process.pid, ...servers };
  if (Object.values(product).some((pid) => cpuSeconds(pid) === null)) return null;
  return {
    product: Object.keys(product),
    sample: () => sampleEach(pids, (pid) => cpuSeconds(pid)),
    sampleMainThreads: () => sampleEach(product, (pid) => cpuSeconds(pid, pid)),
    samplePreemptions: () => sampleEach(product, mainThreadPreemptions),
  };
};

/** CPU seconds the product's processes have used so far, together. */
export const productSeconds = (probe: CpuProbe, sample: CpuSample): number =>
  probe.product.reduce((sum, name) => sum + (sample[name] ?? 0), 0);

/** How many times per request each process's count (CPU seconds, preemptions) grew between two samples. */
export const countPerRequest = (before: CpuSample, after: CpuSample, requests: number): Record<string, number> =>
  Object.fromEntries(
    Object.keys(after)
      .filter((name) => name in before)
      .map((name) => [name, (after[name]! - before[name]!) / Math.max(1, requests)]),
  );

/** CPU milliseconds per request of each process between two samples. */
export const perRequest = (before: CpuSample, after: CpuSample, requests: number): Record<string, number> =>
  Object.fromEntries(Object.entries(countPerRequest(before, after, requests)).map(([name, seconds]) => [name, seconds * 1000]));

/** The CPU milliseconds per request of all the processes together, and the requests/s those allow on this machine's cores. */
export const capacity = (cpuMsPerRequest: Record<string, number>, cores = cpus().length): { cpuMs: number; perSecond: number } => {
  const cpuMs = Object.values(cpuMsPerRequest).reduce((a, b) => a + b, 0);
  return { cpuMs, perSecond: (cores * 1000) / cpuMs };
};
