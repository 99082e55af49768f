import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** CPU seconds (user + system) each named process, or its main thread, has used so far (Linux /proc). */
export type CpuSample = Record<string, number>;

export interface CpuProbe {
  sample(): CpuSample;
  /** The product processes' main threads alone, where their JavaScript runs. */
  sampleMainThreads(): CpuSample;
  product: string[];
}

/** /proc counts in USER_HZ, which Linux fixes at 100 a second. */
const TICKS_PER_SECOND = 100;

/** A process's CPU seconds, or with `thread` one of its threads' (the main thread's id is the pid). */
const cpuSeconds = (pid: number, thread?: number): number | null => {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // After the command name (which may hold spaces), utime and stime are the 12th and 13th fields.
    const fields = stat.split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
};

const sampleEach = (pids: Record<string, number>, main: boolean): CpuSample =>
  Object.fromEntries(
    Object.entries(pids).flatMap(([name, pid]) => {
      const seconds = cpuSeconds(pid, main ? pid : undefined);
      return seconds === null ? [] : [[name, seconds]];
    }),
  );

/**
 * Watches the product's processes, the load generator (this process) and the bench's NATS and
 * Redis: on cores they share, what each costs per request bounds a throughput. Null without /proc.
 */
export const cpuProbe = (product: Record<string, number>, servers: Record<string, number>): CpuProbe | null => {
  if (Object.values(product).some((pid) => cpuSeconds(pid) === null)) return null;
  const all = { ...product, 'load generator': process.pid, ...servers };
  return { product: Object.keys(product), sample: () => sampleEach(all, false), sampleMainThreads: () => sampleEach(product, true) };
};

/** CPU milliseconds per request of each process between two samples. */
const perRequest = (before: CpuSample, after: CpuSample, requests: number): Record<string, number> =>
  Object.fromEntries(
    Object.keys(after)
      .filter((name) => name in before)
      .map((name) => [name, ((after[name]! - before[name]!) * 1000) / Math.max(1, requests)]),
  );

/** Waits until the product's processes use under a tenth of a core (deferred work counts), two minutes at most. */
const settle = async (cpu: CpuProbe): Promise<void> => {
  const used = () => cpu.product.reduce((sum, name) => sum + (cpu.sample()[name] ?? 0), 0);
  const until = performance.now() + 120_000;
  for (let last = used(); performance.now() < until; ) {
    await sleep(250);
    const now = used();
    if (now - last < 0.025) return;
    last = now;
  }
};

/** CPU ms per request of each process and of each product main thread, around `run` (which says how many requests it answered). */
export const measureCpu = async <T extends { answered: number }>(cpu: CpuProbe, run: () => Promise<T>) => {
  await settle(cpu);
  const [before, mainBefore] = [cpu.sample(), cpu.sampleMainThreads()];
  const result = await run();
  await settle(cpu);
  return {
    result,
    cpuMsPerRequest: perRequest(before, cpu.sample(), result.answered),
    mainThreadMsPerRequest: perRequest(mainBefore, cpu.sampleMainThreads(), result.answered),
  };
};

/** All processes' CPU ms per request together, and the requests/s those allow on this machine's cores. */
export const capacity = (cpuMsPerRequest: Record<string, number>, cores = cpus().length) => {
  const cpuMs = Object.values(cpuMsPerRequest).reduce((a, b) => a + b, 0);
  return { cpuMs, perSecond: (cores * 1000) / cpuMs };
};
