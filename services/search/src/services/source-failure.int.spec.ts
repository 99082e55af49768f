import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SearchMessages, type Source } from '@palaver/contracts';
import type { RunningService } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSearchService } from '../index';

describe('a crawl that keeps failing', () => {
  let infra: TestInfrastructure;
  let service: RunningService;
  let server: Server;
  let origin = '';
  const projectId = '0b9e2c4a-1d3f-4e5a-8b7c-6d5e4f3a2b1c';

  beforeAll(async () => {
    server = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><p>Some text to embed.</p></main></body></html>'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('ends as failed, with the reason, once its job has no attempt left (not crawling for ever)', async () => {
    const created = await infra.services.send(SearchMessages.createSource, { projectId, body: { type: 'website', url: `${origin}/` } });
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
