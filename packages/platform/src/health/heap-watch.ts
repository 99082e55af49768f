import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { logger } from '../logger/logger';

/** Bytes of the old generation in use, and its limit. */
export interface HeapReading {
  used: number;
  limit: number;
}

export interface HeapWatchOptions {
  /** The share of the old generation's limit in use past which a warning is logged (0.7). */
  warnAtShare?: number;
  /** How often the heap is read after the first reading (60 s). */
  intervalMs?: number;
  read?: () => HeapReading;
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

export interface HeapWatch {
  /** Reads the heap now, warning if it has just gone past the share. */
  check(): void;
  stop(): void;
}

/** Below the warning's share by this much, the heap has room again and a later rise warns anew. */
const REARM_MARGIN = 0.1;
const MB = 2 ** 20;

/** V8's semi-space size in MB, as set on this process (`--max-semi-space-size`), else Node 20's 16. */
const semiSpaceMb = (): number => {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const set = flags.map((flag) => /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(flag)?.[1]).filter((value) => value !== undefined);
  return set.length > 0 ? Number(set.at(-1)) : 16;
};

/**
 * The old generation, where data that stays (the stores') lives, against its own limit: V8's heap
 * limit also counts the young generation's three semi-spaces, and the process dies when the old
 * generation alone is full (with a 64 MB old generation and 64 MB semi-spaces, at a quarter of it).
 */
const readHeap = (): HeapReading => {
  const stats = getHeapStatistics();
  const young = getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space')
    .reduce((sum, space) => sum + space.space_used_size, 0);
  return { used: stats.used_heap_size - young, limit: stats.heap_size_limit - 3 * semiSpaceMb() * MB };
};

/**
 * Watches the heap of a process whose embedded stores hold their data in memory, which grows with
 * every exchange until the process dies at its old generation's limit (docs/deployment.md, Embedded). It
 * warns once as the data passes `warnAtShare` of the limit, with the way out, and again only after
 * the heap has had room again. Reads at once, then every `intervalMs`; the timer keeps no process alive.
 */
export const watchHeap = (options: HeapWatchOptions = {}): HeapWatch => {
  const { warnAtShare = 0.7, intervalMs = 60_000, read = readHeap, warn = (fields, message) => logger.warn(fields, message) } = options;
  let warned = false;
  const check = (): void => {
    const { used, limit } = read();
    const share = used / limit;
    if (share < warnAtShare - REARM_MARGIN) warned = false;
    if (warned || share < warnAtShare) return;
    warned = true;
    warn(
      { heapUsedMb: Math.round(used / MB), heapLimitMb: Math.round(limit / MB) },
      `the heap is ${Math.round(100 * share)} % full: the embedded stores keep their data in it, and the process stops when it is full. ` +
        'Set MONGODB_URL and NATS_URL to keep the data in MongoDB and JetStream, or raise --max-old-space-size (docs/deployment.md, Embedded)',
    );
  };
  check();
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
};
