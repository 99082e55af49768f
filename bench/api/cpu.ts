import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) each named process has used so far, from /proc (Linux). */
export type CpuSample = Record<string, number>;

export interface CpuProbe {
  sample(): CpuSample;
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

const cpuSeconds = (pid: number): number | null => {
  try {
    // The fields after the command name (which may hold spaces) start at field 3: utime, stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
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

/**
 * Watches the product, the load generator (this process) and the NATS and Redis servers when they
 * run on this machine (`servers`: name -> pid): what each costs per answered request is what
 * bounds a throughput on a machine whose cores they share. Processes it cannot see are left out.
 */
export const cpuProbe = (productPid: number, servers: Record<string, number>): CpuProbe | null => {
  const pids: Record<string, number> = { product: productPid, 'load generator': process.pid, ...servers };
  if (cpuSeconds(productPid) === null) return null;
  return {
    sample: () => {
      const sample: CpuSample = {};
      for (const [name, pid] of Object.entries(pids)) {
        const seconds = cpuSeconds(pid);
        if (seconds !== null) sample[name] = seconds;
      }
      return sample;
    },
  };
};

/** CPU milliseconds per request of each process between two samples. */
export const perRequest = (before: CpuSample, after: CpuSample, requests: number): Record<string, number> =>
  Object.fromEntries(
    Object.keys(after)
      .filter((name) => name in before)
      .map((name) => [name, ((after[name]! - before[name]!) * 1000) / Math.max(1, requests)]),
  );
