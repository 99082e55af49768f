import { streamReply } from './measure';
import { benchProjectKey, call, initVisitor } from './product.setup';
import { startChild } from './servers';

export interface SoakResult {
  streams: number;
  opened: number;
  completed: number;
  dropped: number;
  /** Heap and external memory while the streams were open, over that before they were opened. */
  heapPerStreamKb: number;
  /** The same over that once they all ended: what an open stream holds beyond its stored exchange. */
  openPerStreamKb: number;
  rssPerStreamKb: number;
}

/**
 * Opens `streams` concurrent streamed replies on one product process (the model holds each after
 * its first delta), measures its memory per open stream, releases them, counts the ones that did
 * not end with [DONE] and measures again. The embedded stores keep their data in memory, so the
 * first figure includes what each exchange stores.
 */
export const soak = async (streams: number, env: Record<string, string>): Promise<SoakResult> => {
  const held = { ...env, BENCH_HOLD_REPLIES: 'true', REPLY_TIMEOUT_MS: '900000' };
  const product = await startChild('product.server.ts', held, ['--expose-gc']);
  try {
    const url = product.url;
    const { headers } = await initVisitor(url, await benchProjectKey(url, product.ready.adminToken as string), 'soak-visitor');
    const ids = await pool(streams, 50, async () => (await call(`${url}/v2/conversations`, 'POST', headers, {})).id as string);
    process.stderr.write(`soak: ${streams} conversations created\n`);
    const memory = async () => (await product.ask<{ usage: NodeJS.MemoryUsage }>('memory')).usage;
    const heap = (usage: NodeJS.MemoryUsage) => usage.heapUsed + usage.external;
    const before = await memory();
    const ends: Promise<boolean>[] = [];
    // Resolves once the stream's first bytes arrived (true) or it failed; its end goes to `ends`.
    const open = (i: number) =>
      new Promise<boolean>((first) => {
        const reply = streamReply(`${url}/v2/conversations/${ids[i]}/messages`, headers, 'Hold this line', () => first(true));
        ends.push(reply.catch(() => false).finally(() => first(false)));
      });
    const opened = (await pool(streams, 200, open)).filter(Boolean).length;
    process.stderr.write(`soak: ${opened} streams open\n`);
    const during = await memory();
    await product.ask('release');
    const completed = (await Promise.all(ends)).filter(Boolean).length;
    const after = await memory();
    const perStream = (bytes: number) => bytes / streams / 1024;
    return {
      streams,
      opened,
      completed,
      dropped: streams - completed,
      heapPerStreamKb: perStream(heap(during) - heap(before)),
      openPerStreamKb: perStream(heap(during) - heap(after)),
      rssPerStreamKb: perStream(during.rss - before.rss),
    };
  } finally {
    await product.stop();
  }
};

/** Runs task(0..count-1), at most `width` at a time, and returns the results in order. */
const pool = async <T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> => {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
};
