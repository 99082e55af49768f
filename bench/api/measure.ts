/** What the scenarios measure: req/s and latency under load (autocannon), and the time to a streamed reply's first delta. */
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { percentile } from '../common';
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
  await autocannonRun({ ...options, durationSeconds: Math.min(2, options.durationSeconds) });
  if (!cpu) {
    await sleep(500);
    return autocannonRun(options);
  }
  const { result, ...costs } = await measureCpu(cpu, () => autocannonRun(options));
  return { ...result, ...costs, productProcesses: cpu.product };
};

const autocannonRun = async ({ url, path = '', paths, method = 'GET', headers, body, ...options }: LoadOptions): Promise<LoadResult> => {
  let next = 0;
  const result = await autocannon({
    url: `${url}${path}`,
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

/** Time to the first `text-delta` of a streamed reply, one request at a time. */
export interface TtftResult {
  p50: number;
  p99: number;
  count: number;
  failed: number;
}

const WARMUP = 20;

export const measureTtft = async (url: string, paths: string[], headers: Record<string, string>, requests: number): Promise<TtftResult> => {
  const samples: number[] = [];
  let failed = 0;
  for (let i = 0; i < requests + WARMUP; i++) {
    const took = await firstDelta(`${url}${paths[i % paths.length]}`, headers).catch(() => null);
    if (took === null) failed += 1;
    else if (i >= WARMUP) samples.push(took);
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), count: samples.length, failed };
};

/** ms from sending the request to reading the first text-delta; reads the stream to its end. */
const firstDelta = async (url: string, headers: Record<string, string>): Promise<number> => {
  const started = performance.now();
  let took: number | null = null;
  const done = await streamReply(url, headers, 'How long is the guarantee?', (text) => {
    if (took === null && text.includes('"type":"text-delta"')) took = performance.now() - started;
  });
  if (took === null || !done) throw new Error('no text-delta');
  return took;
};

/**
 * Posts a message with a streamed reply and reads the reply to its end, calling `onText` with each
 * chunk after the end of the one before it; resolves whether the reply ended with [DONE].
 */
export const streamReply = async (url: string, headers: Record<string, string>, content: string, onText: (text: string) => void) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ content, stream: true }),
  });
  if (response.status !== 200 || !response.body) return false;
  const decoder = new TextDecoder();
  let tail = '';
  for await (const chunk of response.body) {
    const text = tail + decoder.decode(chunk as Uint8Array, { stream: true });
    onText(text);
    tail = text.slice(-64);
  }
  return tail.includes('[DONE]');
};
