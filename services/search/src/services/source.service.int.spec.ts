import { CRAWL_QUEUE, SearchMessages, type Source } from '@palaver/contracts';
import { ManualClock, type RunningService } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSearchService } from '../index';
import { startTestSite, type TestSite } from '../testing/test-site';
import { crawlJobId } from './source.service';

const page = (title: string, text: string, links: string[] = []) =>
  `<html><head><title>${title}</title></head><body><main><p>${text}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`;

describe('sources on the search service (embedded)', () => {
  let infra: TestInfrastructure;
  let service: RunningService;
  let server: TestSite;
  let origin = '';
  const clock = new ManualClock(new Date());
  const hits: string[] = [];
  const site: Record<string, { type: string; body: string }> = {};
  const projectId = '6f1c7d2e-8a4b-4c3d-9e5f-0a1b2c3d4e5f';

  const get = (sourceId: string) => infra.services.send(SearchMessages.getSource, { projectId, sourceId });
  const ready = async (sourceId: string, after = ''): Promise<Source> => {
    await expect
      .poll(
        async () => {
          const s = await get(sourceId);
          return s.status === 'ready' && (s.lastSyncAt ?? '') > after;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(true);
    return get(sourceId);
  };

  beforeAll(async () => {
    server = await startTestSite((request, response) => {
      hits.push(request.url ?? '/');
      const path = (request.url ?? '/').split('?')[0]!;
      const slow = /^\/slow\/(\d+)$/.exec(path);
      if (slow) {
        // A chain of slow pages: a crawl that is still running when the test acts.
        const n = Number(slow[1]);
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'text/html' }).end(page(`Slow ${n}`, `Slow fact ${n}.`, [`/slow/${n + 1}`])),
          100,
        );
        return;
      }
      const found = site[path];
      if (!found) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': found.type }).end(found.body);
    });
    origin = server.origin;
    infra = await createTestInfrastructure({
      clock,
      config: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', CRAWL_DELAY_MS: 0, SOURCE_SCHEDULE_INTERVAL_MS: 100 },
    });
    service = await startSearchService(infra);
  });
  afterAll(async () => {
    await service?.close();
    await infra?.cleanup();
    await server?.close();
  });

  it('a sitemap source crawls what its sitemap index lists, follows no links, and honours exclude', async () => {
    site['/maps/index.xml'] = {
      type: 'application/xml',
      body: `<sitemapindex><sitemap><loc>${origin}/maps/a.xml</loc></sitemap></sitemapindex>`,
    };
    site['/maps/a.xml'] = {
      type: 'application/xml',
      body: `<urlset><url><loc>${origin}/listed</loc></url><url><loc>${origin}/drafts/one</loc></url></urlset>`,
    };
    site['/listed'] = { type: 'text/html', body: page('Listed', 'The listed page says kiwis are flightless.', ['/unlisted']) };
    site['/unlisted'] = { type: 'text/html', body: page('Unlisted', 'Never crawled.') };
    site['/drafts/one'] = { type: 'text/html', body: page('Draft', 'Never crawled either.') };
    const created = await infra.services.send(SearchMessages.createSource, {
      projectId,
      body: { type: 'sitemap', url: `${origin}/maps/index.xml`, exclude: ['/drafts/**'] },
    });
    const done = await ready(created.id);
    expect(done.pages).toMatchObject({ found: 1, indexed: 1 });
    expect(hits).toContain('/listed');
    expect(hits).not.toContain('/unlisted');
    expect(hits).not.toContain('/drafts/one');
    await infra.services.send(SearchMessages.deleteSource, { projectId, sourceId: created.id });
  });

  it('refreshIntervalHours: the source is crawled again once due, and its changes are indexed', async () => {
    site['/'] = { type: 'text/html', body: page('Opening hours', 'The shop opens at nine o clock.') };
    const created = await infra.services.send(SearchMessages.createSource, {
      projectId,
      body: { type: 'website', url: `${origin}/`, refreshIntervalHours: 6 },
    });
    const first = await ready(created.id);
    expect(Date.parse(first.nextSyncAt!) - Date.parse(first.lastSyncAt!)).toBe(6 * 3_600_000);

    site['/'] = { type: 'text/html', body: page('Opening hours', 'The shop now opens at ten o clock.') };
    clock.advance(6 * 3_600_000 + 1000);
    const second = await ready(created.id, first.lastSyncAt!);
    expect(second.pages).toMatchObject({ found: 1, indexed: 1 });
    const { chunks } = await infra.services.send(SearchMessages.retrieve, {
      projectId,
      query: 'when does the shop open',
      qnaLimit: 0,
      chunkLimit: 3,
    });
    expect(chunks.map((c) => c.content).join(' ')).toContain('ten o clock');
    expect(chunks.map((c) => c.content).join(' ')).not.toContain('nine o clock');
  });

  it('DELETE mid-crawl: the crawl stops, and no document of the source is left', async () => {
    const otherProject = '7a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';
    const created = await infra.services.send(SearchMessages.createSource, {
      projectId: otherProject,
      body: { type: 'website', url: `${origin}/slow/0`, maxPages: 40 },
    });
    await expect
      .poll(
        async () => (await infra.services.send(SearchMessages.getSource, { projectId: otherProject, sourceId: created.id })).pages.indexed,
        {
          timeout: 20_000,
          interval: 20,
        },
      )
      .toBeGreaterThanOrEqual(3);
    await infra.services.send(SearchMessages.deleteSource, { projectId: otherProject, sourceId: created.id });
    // The crawl's job ends at its next page.
    await expect.poll(() => infra.jobs.exists(CRAWL_QUEUE, crawlJobId(created.id)), { timeout: 10_000, interval: 20 }).toBe(false);
    const slowFetched = hits.filter((hit) => hit.startsWith('/slow/')).length;
    expect(slowFetched).toBeLessThan(40);
    const documents = await infra.services.send(SearchMessages.listDocuments, { projectId: otherProject, limit: 100, offset: 0 });
    expect(documents.total).toBe(0);
  });

  it('a start URL that redirects to another origin (http to https, to www) is crawled on the origin it lands on', async () => {
    site['/landing'] = { type: 'text/html', body: page('Landing', 'The landing page says otters hold hands.', ['/landing-more']) };
    site['/landing-more'] = { type: 'text/html', body: page('More', 'The second page says puffins mate for life.') };
    const redirector = await startTestSite((_request, response) => response.writeHead(301, { location: `${origin}/landing` }).end());
    try {
      const elsewhere = redirector.origin;
      const created = await infra.services.send(SearchMessages.createSource, {
        projectId,
        body: { type: 'website', url: `${elsewhere}/` },
      });
      const done = await ready(created.id);
      expect(done.pages).toMatchObject({ found: 2, indexed: 2 });
      const pages = await infra.services.send(SearchMessages.listSourcePages, { projectId, sourceId: created.id, limit: 10, offset: 0 });
      expect(pages.data.map((p) => p.url).sort()).toEqual([`${origin}/landing`, `${origin}/landing-more`]);
      await infra.services.send(SearchMessages.deleteSource, { projectId, sourceId: created.id });
    } finally {
      await redirector.close();
    }
  });
});
