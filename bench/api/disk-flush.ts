import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonlLog } from '../../packages/platform/src/storage/jsonl-log';
import { percentile } from './ttft';

export interface DiskFlushResult {
  p50: number;
  p99: number;
  count: number;
}

const WARMUP = 20;
/** About the sequential replies' pace: the disk is idle between appends, as it is between them. */
const GAP_MS = 5;
/** About the size of a message's first append (the user message and the reply's start). */
const RECORD = { type: 'UserMessagePosted', data: { content: 'x'.repeat(1_000) } };

/**
 * The disk's part of a first delta: a durable append through the product's own log, one at a
 * time. A reply starts only once its message is on disk (docs/deployment.md), so every first
 * delta waits for one such flush, whatever the product does.
 */
export const measureDiskFlush = async (dataDir: string, count: number): Promise<DiskFlushResult> => {
  const { log } = await JsonlLog.open<unknown>(join(dataDir, 'disk-flush.jsonl'));
  const took: number[] = [];
  try {
    for (let i = 0; i < count + WARMUP; i++) {
      const started = performance.now();
      await log.append([RECORD]);
      if (i >= WARMUP) took.push(performance.now() - started);
      await sleep(GAP_MS);
    }
  } finally {
    await log.close();
  }
  took.sort((a, b) => a - b);
  return { p50: percentile(took, 0.5), p99: percentile(took, 0.99), count: took.length };
};
