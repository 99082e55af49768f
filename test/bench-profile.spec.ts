import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServers } from '../bench/api/built-servers';
import { profileMessages } from '../bench/api/profile';
import { attribute, type CpuProfile, foldSmall } from '../bench/api/profile-attribution';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
const ours = (path: string) => `file:///repo/${path}`;
const library = (pkg: string) => `file:///repo/node_modules/.pnpm/${pkg}@1.0.0/node_modules/${pkg}/dist/index.js`;
const sourceOf = (url: string) =>
  url.startsWith('file:///repo/') && !url.includes('node_modules') ? url.slice('file:///repo/'.length) : null;

/** root ─┬ (program)
 *        ├ runMicrotasks ─ processTicks (node) ─ handler (conversation) ─┬ append (platform/storage)
 *        │                                                                └ parse (zod) ─ check (zod)
 *        ├ addJob (platform/job-queue) ─ add (bullmq) ─ sendCommand (ioredis) ─ writeBuffer (native) ─ writeGeneric (node)
 *        ├ onData (nats), no code of ours above it
 *        └ (idle) */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 9, 13, 14] },
    { id: 2, callFrame: frame('(program)') },
    { id: 3, callFrame: frame('runMicrotasks'), children: [4] },
    { id: 4, callFrame: frame('processTicksAndRejections', 'node:internal/process/task_queues'), children: [5] },
    { id: 5, callFrame: frame('handle', ours('services/conversation/src/conversation.handler.ts')), children: [6, 7] },
    { id: 6, callFrame: frame('append', ours('packages/platform/src/storage/jsonl-log.ts')) },
    { id: 7, callFrame: frame('parse', library('zod')), children: [8] },
    { id: 8, callFrame: frame('check', library('zod')) },
    { id: 9, callFrame: frame('addJob', ours('packages/platform/src/job-queue/bullmq.job-queue.ts')), children: [10] },
    { id: 10, callFrame: frame('add', library('bullmq')), children: [11] },
    { id: 11, callFrame: frame('sendCommand', library('ioredis')), children: [12] },
    { id: 12, callFrame: frame('writeBuffer'), children: [15] },
    { id: 15, callFrame: frame('writeGeneric', 'node:internal/stream_base_commons') },
    { id: 13, callFrame: frame('onData', library('nats')) },
    { id: 14, callFrame: frame('(idle)') },
  ],
  // append ×4, check ×2, handle ×1, writeGeneric ×2, onData ×1, (program) ×1, (idle) ×5
  samples: [6, 6, 6, 6, 8, 8, 5, 15, 15, 13, 2, 14, 14, 14, 14, 14],
};

describe('the profile attribution of pnpm bench:api --profile', () => {
  it('gives each busy sample to the first module of ours on its stack, or to the outermost library it called', () => {
    const result = attribute(profile, sourceOf);
    expect(result.busySamples).toBe(11);
    const shares = Object.fromEntries(result.owners.map((o) => [o.name, Math.round(o.share * 11)]));
    expect(shares).toEqual({
      'packages/platform/storage': 4,
      zod: 2,
      'services/conversation': 1,
      bullmq: 2,
      nats: 1,
      '(program)': 1,
    });
    expect(result.functions[0]).toEqual({ name: 'append [packages/platform/storage]', share: 4 / 11 });
  });

  it('folds the small owners into the rest of ours, of the libraries and of the runtime', () => {
    const folded = foldSmall(attribute(profile, sourceOf).owners, 0.15);
    expect(folded.map((o) => o.name)).toEqual([
      'packages/platform/storage',
      'zod',
      'bullmq',
      'the rest of our code',
      'the rest of the libraries',
      'the rest of the runtime',
    ]);
    expect(folded.reduce((sum, o) => sum + o.share, 0)).toBeCloseTo(1);
  });
});

describe('pnpm bench:api --profile', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("profiles the built product's main thread in the messages scenario and names our modules through the source map", async () => {
    await buildServers();
    const dataDir = await mkdtemp(join(tmpdir(), 'palaver-bench-profile-spec-'));
    dirs.push(dataDir);
    const result = await profileMessages('embedded', { DATA_DIR: dataDir }, {}, 2, 2, 1);
    dirs.push(result.path);
    expect(existsSync(result.path)).toBe(true);
    expect(result.messagesPerSecond).toBeGreaterThan(0);
    expect(result.mainThreadMsPerMessage).toBeGreaterThan(0);
    expect(result.attribution.busySamples).toBeGreaterThan(100);
    const owners = result.attribution.owners.map((o) => o.name);
    expect(owners).toContain('services/conversation');
    expect(owners).toContain('services/gateway');
    expect(owners.filter((o) => o.startsWith('packages/platform/')).length).toBeGreaterThan(2);
  }, 90_000);
});
