import { SearchMessages, type Source } from '@palaver/contracts';
import type { RunningService } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSearchService } from '../index';
import { startTestSite, type TestSite } from '../testing/test-site';

describe('a crawl that keeps failing', () => {
  let infra: TestInfrastructure;
  let service: RunningService;
  let site: TestSite;
  const projectId = '0b9e2c4a-1d3f-4e5a-8b7c-6d5e4f3a2b1c';

  beforeAll(async () => {
    site = await startTestSite((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><p>Some text to embed.</p></main></body></html>'),
    );
    const base = await createTestInfrastructure({ config: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', CRAWL_DELAY_MS: 0 } });
    // The embedding model is down: every document write fails.
    infra = {
      ...base,
      embedder: {
        name: 'down',
        dimensions: base.embedder.dimensions,
        embed: async () => {
          throw new Error('embedding model unreachable');
        },
      },
    };
    service = await startSearchService(infra);
  });
  afterAll(async () => {
    await service?.close();
    await infra?.cleanup();
    await site?.close();
  });

  it('ends as failed, with the reason, once its job has no attempt left (not crawling for ever)', async () => {
    const created = await infra.services.send(SearchMessages.createSource, {
      projectId,
      body: { type: 'website', url: `${site.origin}/` },
    });
    await expect
      .poll(async () => (await infra.services.send(SearchMessages.getSource, { projectId, sourceId: created.id })).status, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('failed');
    const failed: Source = await infra.services.send(SearchMessages.getSource, { projectId, sourceId: created.id });
    expect(failed.error).toMatch(/embedding model unreachable/);
    expect(failed.lastSyncAt).not.toBeNull();
  });
});
