import { startChild } from './child';
import { benchProjectKey, call, initVisitor } from './product.setup';

export interface SoakResult {
  streams: number;
  opened: number;
  completed: number;
  dropped: number;
  /** Heap and external memory while the streams were open, over that before they were opened. */
  heapPerStreamKb: number;
  /** The same over that once they all ended: what an open stream holds beyond the data its exchange leaves stored. */
  openPerStreamKb: number;
  rssPerStreamKb: number;
}

interface Memory {
  usage: NodeJS.MemoryUsage;
}

/**
 * Opens `streams` concurrent streamed replies on one gateway process (the model holds each reply
 * after its first delta), measures the process's memory per open stream, then releases them,
 * counts the ones that did not end with [DONE] and measures again once they all ended. The
 * embedded stores keep their data in memory, so the first figure includes what each exchange stores.
 */
export const soak = async (streams: number, env: Record<string, string>): Promise<SoakResult> => {
  const product = await startChild('product.server.ts', { ...env, BENCH_HOLD_REPLIES: 'true', REPLY_TIMEOUT_MS: '900000' }, [
    '--expose-gc',
  ]);
  try {
    const url = product.url;
    const key = await benchProjectKey(url, product.ready.adminToken as string);
    const { headers } = await initVisitor(url, key, 'soak-visitor');
    const conversationIds = await pool(streams, 50, async () => (await call(`${url}/v2/conversations`, 'POST', headers, {})).id as string);
    process.stderr.write(`soak: ${streams} conversations created\n`);
    const memory = () => product.ask<Memory>('memory', 'memory');
    const heap = ({ usage }: Memory) => usage.heapUsed + usage.external;
    const before = await memory();
    let opened = 0;
    const ends: Promise<boolean>[] = [];
    await pool(streams, 200, async (i) => {
      const { first, end } = openStream(`${url}/v2/conversations/${conversationIds[i]}/messages`, headers);
      ends.push(end);
      if (await first) opened += 1;
    });
    process.stderr.write(`soak: ${opened} streams open\n`);
    const during = await memory();
    await product.ask('release', 'released');
    const completed = (await Promise.all(ends)).filter(Boolean).length;
    const after = await memory();
    return {
      streams,
      opened,
      completed,
      dropped: streams - completed,
      heapPerStreamKb: (heap(during) - heap(before)) / streams / 1024,
      openPerStreamKb: (heap(during) - heap(after)) / streams / 1024,
      rssPerStreamKb: (during.usage.rss - before.usage.rss) / streams / 1024,
    };
  } finally {
    await product.stop();
  }
};

/** `first` resolves once the stream's first bytes arrived; `end`, whether it ended with [DONE]. */
const openStream = (url: string, headers: Record<string, string>): { first: Promise<boolean>; end: Promise<boolean> } => {
  let markFirst: (ok: boolean) => void = () => undefined;
  const first = new Promise<boolean>((resolve) => (markFirst = resolve));
  const end = (async () => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hold this line', stream: true }),
      });
      if (response.status !== 200 || !response.body) return false;
      const decoder = new TextDecoder();
      let tail = '';
      for await (const chunk of response.body) {
        markFirst(true);
        tail = (tail + decoder.decode(chunk as Uint8Array, { stream: true })).slice(-64);
      }
      return tail.includes('[DONE]');
    } catch {
      return false;
    } finally {
      markFirst(false);
    }
  })();
  return { first, end };
};

/** Runs task(0..count-1), at most `width` at a time, and returns the results in order. */
const pool = async <T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> => {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
};
