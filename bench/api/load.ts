import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { type CpuProbe, perRequest, productSeconds } from './cpu';

export interface LoadResult {
  /** Successful (2xx) answers per second: a 409 or a 429 is no throughput. */
  rps: number;
  answered: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, socket errors and timeouts, and what they were (`4xx: 3, errors: 1`). */
  failed: number;
  failures: string;
  /** With a probe: CPU ms per answered request of each process, counted until the product was idle again (deferred work counts). */
  cpuMsPerRequest?: Record<string, number>;
  /** Which of `cpuMsPerRequest`'s processes are the product's own. */
  productProcesses?: string[];
  /** The same for each product process's main thread. */
  mainThreadMsPerRequest?: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  path?: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** When set, connection i sends to paths[i % paths.length] (a conversation per connection). */
  paths?: string[];
  cpu?: CpuProbe | null;
}

/** One counted autocannon run, after a short warm-up whose leftover work is let finish first. */
export const load = async (options: LoadOptions): Promise<LoadResult> => {
  await run({ ...options, durationSeconds: Math.min(2, options.durationSeconds) });
  const { cpu } = options;
  if (!cpu) {
    await sleep(500);
    return run(options);
  }
  await settle(cpu);
  const before = cpu.sample();
  const mainBefore = cpu.sampleMainThreads();
  const result = await run(options);
  await settle(cpu);
  return {
    ...result,
    cpuMsPerRequest: perRequest(before, cpu.sample(), result.answered),
    productProcesses: cpu.product,
    mainThreadMsPerRequest: perRequest(mainBefore, cpu.sampleMainThreads(), result.answered),
  };
};

/** Below this share of a core over a step, the product is taken as idle. */
const IDLE_SHARE = 0.1;
const SETTLE_STEP_MS = 250;
const SETTLE_MAX_MS = 120_000;

/** Waits until the product's processes are idle (or SETTLE_MAX_MS passed). */
export const settle = async (cpu: CpuProbe): Promise<void> => {
  const start = performance.now();
  let last = productSeconds(cpu, cpu.sample());
  while (performance.now() - start < SETTLE_MAX_MS) {
    await sleep(SETTLE_STEP_MS);
    const now = productSeconds(cpu, cpu.sample());
    if (now - last < (IDLE_SHARE * SETTLE_STEP_MS) / 1000) return;
    last = now;
  }
};

const run = async (options: LoadOptions): Promise<LoadResult> => {
  let next = 0;
  const { paths, method = 'GET', headers, body } = options;
  const result = await autocannon({
    url: `${options.url}${options.path ?? ''}`,
    method,
    headers,
    body,
    connections: options.connections,
    duration: options.durationSeconds,
    setupClient: paths ? (client: any) => client.setRequests([{ method, path: paths[next++ % paths.length]!, headers, body }]) : undefined,
  } as autocannon.Options);
  return {
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
