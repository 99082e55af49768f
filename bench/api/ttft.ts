import { percentile } from '../common';

/** Time to the first `text-delta` of a streamed reply, one request at a time. */
export interface TtftResult {
  p50: number;
  p99: number;
  count: number;
  failed: number;
}

const WARMUP = 20;

export const measureTtft = async (options: {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  requests: number;
}): Promise<TtftResult> => {
  const samples: number[] = [];
  let failed = 0;
  for (let i = 0; i < options.requests + WARMUP; i++) {
    const took = await firstDelta(`${options.url}${options.paths[i % options.paths.length]}`, options.headers).catch(() => null);
    if (took === null) failed += 1;
    else if (i >= WARMUP) samples.push(took);
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), count: samples.length, failed };
};

/** ms from sending the request to reading the first text-delta; reads the stream to its end. */
const firstDelta = async (url: string, headers: Record<string, string>): Promise<number> => {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'How long is the guarantee?', stream: true }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`status ${response.status}`);
  const decoder = new TextDecoder();
  let text = '';
  let took: number | null = null;
  for await (const chunk of response.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (took === null && text.includes('"type":"text-delta"')) took = performance.now() - started;
  }
  if (took === null || !text.includes('[DONE]')) throw new Error('no text-delta');
  return took;
};
