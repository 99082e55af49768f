import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { type CpuProbe, measureCpu } from './cpu';

export interface LoadResult {
  /** Successful (2xx) answers per second: a 409 or a 429 is no throughput. */
  rps: number;
  answered: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, socket errors and timeouts, and what they were (`4xx: 3, errors: 1`). */
  failed: number;
  failures: string;
  /** With a probe: CPU ms per answered request of each process, until the product was idle again. */
  cpuMsPerRequest?: Record<string, number>;
  /** Which of `cpuMsPerRequest`'s processes are the product's own. */
  productProcesses?: string[];
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
  /** Connection i sends to paths[i % paths.length] (a conversation per connection). */
  paths?: string[];
  cpu?: CpuProbe | null;
}

/** One counted autocannon run, after a short warm-up whose leftover work is let finish first. */
export const load = async ({ cpu, ...options }: LoadOptions): Promise<LoadResult> => {
  await run({ ...options, durationSeconds: Math.min(2, options.durationSeconds) });
  if (!cpu) {
    await sleep(500);
    return run(options);
  }
  const { result, ...costs } = await measureCpu(cpu, () => run(options));
  return { ...result, ...costs, productProcesses: cpu.product };
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
  const kinds = { '4xx': result['4xx'], '5xx': result['5xx'], errors: result.errors, timeouts: result.timeouts };
  return {
    rps: result['2xx'] / result.duration,
    answered: result['2xx'],
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    failures: Object.entries(kinds)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${kind}: ${n}`)
      .join(', '),
  };
};
