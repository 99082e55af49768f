import { startChild } from './child';
import { cpuProbe, productSeconds } from './cpu';
import { call, initVisitor } from './product.setup';

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
  /** Live event streams then opened at once (one per conversation), and those that answered 200. */
  liveStreams: number;
  liveOpened: number;
  /** The product's CPU while they were all open and nothing happened, in % of one core (null without /proc). */
  liveIdleCpuPercent: number | null;
}

/** How long the idle live streams' CPU is counted. */
const LIVE_IDLE_SECONDS = 30;

interface Memory {
  usage: NodeJS.MemoryUsage;
}

/**
 * Opens `streams` concurrent streamed replies on one gateway process (the model holds each reply
 * after its first delta), measures the process's memory per open stream, then releases them,
 * counts the ones that did not end with [DONE] and measures again once they all ended. The
 * embedded stores keep their data in memory, so the first figure includes the messages and events
 * each exchange stores; the second is what the open streams themselves held (it is a little low:
 * the finished replies added their completion to the stores meanwhile). Then it opens a visitor
 * live event stream on each conversation and counts the CPU the product spends while they sit idle.
 */
export const soak = async (streams: number, env: Record<string, string>): Promise<SoakResult> => {
  const product = await startChild('product.server.ts', { ...env, BENCH_HOLD_REPLIES: 'true', REPLY_TIMEOUT_MS: '900000' }, [
    '--expose-gc',
  ]);
  try {
    const url = product.url;
    const admin = { authorization: `Bearer ${product.ready.adminToken as string}` };
    const project = await call(`${url}/admin/v1/projects`, 'POST', admin, {
      name: 'Soak',
      limits: { messagesPerMinute: null, monthlyMessages: null },
    });
    const key = await call(`${url}/admin/v1/projects/${project.id}/keys`, 'POST', admin, {
      type: 'publishable',
      name: 'soak',
      assistantId: project.defaultAssistantId,
      allowedOrigins: [],
    });
    const { headers } = await initVisitor(url, key.key, 'soak-visitor');
    const conversationIds = await pool(streams, 50, async () => (await call(`${url}/v2/conversations`, 'POST', headers, {})).id as string);
    process.stderr.write(`soak: ${streams} conversations created\n`);

    const before = await product.ask<Memory>('memory', 'memory');
    let opened = 0;
    const ends: Promise<boolean>[] = [];
    await pool(streams, 200, async (i) => {
      const { first, end } = openStream(`${url}/v2/conversations/${conversationIds[i]}/messages`, headers);
      ends.push(end);
      if (await first) opened += 1;
    });
    process.stderr.write(`soak: ${opened} streams open\n`);
    const during = await product.ask<Memory>('memory', 'memory');
    await product.ask('release', 'released');
    const completed = (await Promise.all(ends)).filter(Boolean).length;
    const after = await product.ask<Memory>('memory', 'memory');
    const heap = (memory: Memory) => memory.usage.heapUsed + memory.usage.external;
    const live = await idleLiveStreams(url, headers, conversationIds, product.process.pid!);
    return {
      ...live,
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

/** Opens a live event stream on each conversation, then counts the product's CPU while they sit idle. */
const idleLiveStreams = async (
  url: string,
  headers: Record<string, string>,
  conversationIds: string[],
  pid: number,
): Promise<Pick<SoakResult, 'liveStreams' | 'liveOpened' | 'liveIdleCpuPercent'>> => {
  // A controller per stream: undici sets the limit of a signal shared by thousands of fetches back
  // to 1,500 listeners (whatever `setMaxListeners` said) and warns for each one past it.
  const controllers = conversationIds.map(() => new AbortController());
  try {
    const opened = await pool(conversationIds.length, 200, async (i) => {
      try {
        const response = await fetch(`${url}/v2/conversations/${conversationIds[i]}/events`, { headers, signal: controllers[i]!.signal });
        // Read (and drop) whatever comes, so that the stream stays open.
        void response.body?.pipeTo(new WritableStream()).catch(() => undefined);
        return response.status === 200;
      } catch {
        return false;
      }
    });
    const liveOpened = opened.filter(Boolean).length;
    process.stderr.write(`soak: ${liveOpened} live streams open, idle\n`);
    const cpu = cpuProbe({ product: pid }, {});
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the last ones settle
    const before = cpu?.sample();
    await new Promise((resolve) => setTimeout(resolve, LIVE_IDLE_SECONDS * 1_000));
    const liveIdleCpuPercent =
      cpu && before ? (100 * (productSeconds(cpu, cpu.sample()) - productSeconds(cpu, before))) / LIVE_IDLE_SECONDS : null;
    return { liveStreams: conversationIds.length, liveOpened, liveIdleCpuPercent };
  } finally {
    for (const controller of controllers) controller.abort();
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
