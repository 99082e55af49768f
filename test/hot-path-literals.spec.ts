import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot, keysAddedAfterSpread } from './support/keys-after-spread';

/** Files every request or every message runs through (docs/architecture.md, "No keys added after a spread"). */
const HOT_PATHS = [
  'services/gateway/src/http/routes.ts',
  'services/gateway/src/routes/v2/conversations.routes.ts',
  'services/gateway/src/replies/ask-reply.ts',
  'services/conversation/src/services/conversation-command.service.ts',
  'services/conversation/src/projections/message.projection.ts',
  'services/conversation/src/projections/conversation.projection.ts',
  'services/conversation/src/domain/conversation.state.ts',
  'services/inference/src/services/generate-reply.service.ts',
  'services/search/src/domain/score-fusion.ts',
  'packages/platform/src/job-queue/bullmq.job-queue.ts',
];

describe('object literals on the hot paths', () => {
  it('add no keys after a spread of another object', () => {
    expect(keysAddedAfterSpread(HOT_PATHS.map(fromRoot))).toEqual([]);
  }, 60_000);

  it('are read with the keys each spread brings: added keys are found, replaced ones are not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-after-spread-'));
    try {
      const file = join(dir, 'sample.ts');
      writeFileSync(
        file,
        [
          'const scope = { projectId: "p", visitorId: "v" };',
          'const params = { conversationId: "c" };',
          'export const slow = { ...scope, query: 1 };',
          'export const slowToo = { ...scope, ...params };',
          'export const replaced = { ...scope, visitorId: "w" };',
          'export const keysFirst = { query: 1, ...scope };',
          'export const maybeEmpty = { ...(Math.random() > 0.5 ? scope : {}), query: 1 };',
        ].join('\n'),
      );
      const found = keysAddedAfterSpread([file]).map((entry) => entry.replace(/^.*sample\.ts/, 'sample.ts'));
      // A spread that may be empty counts: when it is not, the keys after it are slow.
      expect(found).toEqual(['sample.ts:3 query', 'sample.ts:4 conversationId', 'sample.ts:7 query']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
