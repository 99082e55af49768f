import autocannon from 'autocannon';
import { type CpuProbe, countPerRequest, perRequest, productSeconds } from './cpu';

export interface LoadResult {
  /** Successful (2xx) answers per second. */
  rps: number;
  /** Successful (2xx) answers in all. */
  answered: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors. */
  failed: number;
  /** What the failures were, e.g. `4xx: 3, errors: 1`. */
  failures: string;
  /**
   * CPU ms per answered request of each watched process (when a probe was given), over the counted
   * run and until the product was idle again: work it deferred (analytics catching up) counts too.
   */
  cpuMsPerRequest?: Record<string, number>;
  /** Which of `cpuMsPerRequest`'s processes are the product's own. */
  productProcesses?: string[];
  /** The CPU ms per answered request of each product process's main thread, where its JavaScript runs. */
  mainThreadMsPerRequest?: Record<string, number>;
  /** How many times per answered request each product process's main thread was preempted (see CpuProbe). */
  mainThreadPreemptionsPerRequest?: Record<string, number>;
  /** How long after the run the product was still working off what the run left (with a probe). */
  settleSeconds?: number;
}

export interface LoadOptions {
  url: string;
  /** Path of every request (unless `paths`). */
  path?: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** When set, connection i sends to paths[i % paths.length] (one conversation per connection). */
  paths?: string[];
  /** Samples the CPU of the processes involved over the counted run. */
  cpu?: CpuProbe | null;
  /** Called around the counted run (with a probe, until the product is idle again), e.g. to profile it. */
  counted?: { start(): Promise<void>; stop(): Promise<void> };
}

/** One autocannon run (after a short warm-up run that is not counted). */
export const load = async (options: LoadOptions): Promise<LoadResult> => {
  await run({ ...options, durationSeconds: Math.min(2, options.durationSeconds) });
  // What the warm-up left (replies still being stored, events still being projected) must not meet the run.
  if (options.cpu) await settle(options.cpu);
  else await sleep(500);
  await options.counted?.start();
  const before = options.cpu?.sample();
  const mainThreadsBefore = options.cpu?.sampleMainThreads();
  const preemptionsBefore = options.cpu?.samplePreemptions();
  const result = await run(options);
  if (options.cpu && before && mainThreadsBefore && preemptionsBefore) {
    result.settleSeconds = await settle(options.cpu);
    result.cpuMsPerRequest = perRequest(before, options.cpu.sample(), result.answered);
    result.productProcesses = options.cpu.product;
    result.mainThreadMsPerRequest = perRequest(mainThreadsBefore, options.cpu.sampleMainThreads(), result.answered);
    result.mainThreadPreemptionsPerRequest = countPerRequest(preemptionsBefore, options.cpu.samplePreemptions(), result.answered);
  }
  // After the CPU samples: what stopping costs (writing a profile) is not the run's.
  await options.counted?.stop();
  return result;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Below this share of a core over a SETTLE_STEP_MS, the product is taken as idle. */
const IDLE_SHARE = 0.1;
const SETTLE_STEP_MS = 250;
const SETTLE_MAX_MS = 120_000;

/** Waits until the product is idle (or SETTLE_MAX_MS passed) and returns the seconds waited. */
export const settle = async (cpu: CpuProbe): Promise<number> => {
  const start = performance.now();
  let last = productSeconds(cpu, cpu.sample());
  while (performance.now() - start < SETTLE_MAX_MS) {
    await sleep(SETTLE_STEP_MS);
    const now = productSeconds(cpu, cpu.sample());
    if (now - last < (IDLE_SHARE * SETTLE_STEP_MS) / 1000) break;
    last = now;
  }
  return Math.max(0, performance.now() - start - SETTLE_STEP_MS) / 1000;
};

const run = async (options: LoadOptions): Promise<LoadResult> => {
  let next = 0;
  const result = await autocannon({
    url: `${options.url}${options.path ?? ''}`,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.durationSeconds,
    setupClient: options.paths
      ? (client: any) => {
          const path = options.paths![next++ % options.paths!.length]!;
          client.setRequests([{ method: options.method ?? 'GET', path, headers: options.headers, body: options.body }]);
        }
      : undefined,
  } as autocannon.Options);
  return {
    // Answered requests per second: a failure (a 409, a 429) is no throughput.
    rps: result['2xx'] / result.duration,
    answered: result['2xx'],
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    failures: Object.entries({ '4xx': result['4xx'], '5xx': result['5xx'], errors: result.errors, timeouts: result.timeouts })
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${kind}: ${n}`)
      .join(', '),
  };
};
