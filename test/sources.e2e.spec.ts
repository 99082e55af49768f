import type { Source, SourcePage } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../services/search/src/testing/office-files';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';
import { type StaticPage, type StaticSite, startStaticSite } from './support/static-site';

const html = (title: string, main: string, links: string[] = []): StaticPage => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title></head><body>
<header><nav>${['/', '/about', '/pricing', ...links].map((href) => `<a href="${href}">Menu ${href}</a>`).join(' ')}</nav></header>
<div class="cookie-consent">We use cookies. Accept the cookies of Zanzibarcookie to continue.</div>
<main><h1>${title}</h1>${main}</main>
<footer><p>Copyright Quokkafooter Holdings, all rights reserved.</p></footer>
</body></html>`,
});

describe('sources: a website crawled into the knowledge base, kept in sync', () => {
  let e2e: E2eApp;
  let site: StaticSite;
  let elsewhere: StaticSite;
  let projectId: string;
  let apiKey: string;
  let pages: Record<string, StaticPage>;
  let source: Source;

  const sourcePath = () => `/projects/${projectId}/sources/${source.id}`;
  const search = async (q: string) =>
    (await http(`${e2e.url}/v2/search?apiKey=${apiKey}&q=${encodeURIComponent(q)}&size=10`)).body.results as Array<{
      url: string;
      content: string;
      title: string;
    }>;
  /** Waits, bounded, for the source's crawl to end (a sync is queued then crawls then ends). */
  const crawled = async (after?: string): Promise<Source> => {
    await expect
      .poll(
        async () => {
          const current: Source = await e2e.admin.call('GET', sourcePath());
          return current.status === 'ready' && (after === undefined || (current.lastSyncAt ?? '') > after) ? 'done' : current.status;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe('done');
    return e2e.admin.call('GET', sourcePath());
  };
  const pageList = async (): Promise<SourcePage[]> => (await e2e.admin.call('GET', `${sourcePath()}/pages?limit=100`)).data;

  beforeAll(async () => {
    elsewhere = await startStaticSite({ '/partner': html('Partner', '<p>The partner sells kayaks.</p>') });
    pages = {
      '/': html(
        'Acme home',
        `<p>Acme was founded in 1987 in the city of Lisbon by two engineers.</p>
         <p>Read the <a href="/docs/manual.pdf">device manual</a>, visit our <a href="${elsewhere.origin}/partner">partner</a>,
         or the <a href="/private/vault">vault</a>.</p>`,
        ['/old-news'],
      ),
      '/about': html('About Acme', '<p>Our support team answers every ticket within four hours.</p>'),
      '/pricing': html('Pricing', '<p>The Pro plan costs 29 euros per month, billed yearly.</p>'),
      '/old-news': html('Old news', '<p>The legacy gizmo glows purple in the dark.</p>'),
      '/private/vault': html('Vault', '<p>The vault combination is 8842.</p>'),
      '/gift-cards': html('Gift cards', '<p>Acme gift cards never expire and work in every store.</p>'),
      '/docs/manual.pdf': { type: 'application/pdf', body: makePdf(['The device battery lasts 36 hours on one charge.'], 'Device manual') },
    };
    pages['/robots.txt'] = { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' };
    site = await startStaticSite(pages);
    pages['/sitemap.xml'] = {
      type: 'application/xml',
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>${site.origin}/</loc></url><url><loc>${site.origin}/gift-cards</loc></url></urlset>`,
    };
    e2e = await startE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', CRAWL_DELAY_MS: '0' });
    const created = await e2e.admin.createProject();
    projectId = created.project.id;
    apiKey = created.publishableKey;
  });
  afterAll(async () => {
    await e2e?.stop();
    await site?.close();
    await elsewhere?.close();
  });

  it('refuses a URL the crawler may not fetch with 422', async () => {
    const refused = await http(`${e2e.url}/admin/v1/projects/${projectId}/sources`, {
      body: { type: 'website', url: 'http://169.254.169.254/latest/meta-data/' },
      token: 'test-admin-token',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/link-local/);
  });

  it('crawls the site: pages, sitemap and PDF on its origin, robots.txt honoured, other origins not fetched', async () => {
    const created = await http(`${e2e.url}/admin/v1/projects/${projectId}/sources`, {
      body: { type: 'website', url: `${site.origin}/`, maxPages: 50 },
      token: 'test-admin-token',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'website', url: `${site.origin}/`, status: 'queued' });
    source = created.body;
    const done = await crawled();
    expect(done.pages).toMatchObject({ found: 7, indexed: 6, skipped: 1, failed: 0, unchanged: 0 });
    expect(done.lastSyncAt).not.toBeNull();

    const fetched = new Set(site.hits.map((hit) => hit.split('?')[0]));
    for (const path of ['/robots.txt', '/sitemap.xml', '/', '/about', '/pricing', '/old-news', '/gift-cards', '/docs/manual.pdf']) {
      expect(fetched, path).toContain(path);
    }
    expect(fetched).not.toContain('/private/vault');
    expect(elsewhere.hits).toEqual([]);
    const listed = await pageList();
    expect(listed.find((p) => p.url === `${site.origin}/private/vault`)).toMatchObject({
      status: 'skipped',
      error: 'disallowed by robots.txt',
    });
    expect(listed.find((p) => p.url === `${site.origin}/docs/manual.pdf`)).toMatchObject({ status: 'indexed', title: 'Device manual' });
  });

  it("search finds each page's facts, the PDF's too, under the page's URL; boilerplate is not content", async () => {
    for (const [question, path, fact] of [
      ['when was Acme founded', '/', 'founded in 1987'],
      ['how fast does support answer tickets', '/about', 'within four hours'],
      ['how much is the Pro plan', '/pricing', '29 euros'],
      ['do gift cards expire', '/gift-cards', 'never expire'],
      ['how long does the battery last', '/docs/manual.pdf', '36 hours'],
    ] as const) {
      const results = await search(question);
      const hit = results.find((r) => r.url === `${site.origin}${path}`);
      expect(hit?.content, question).toContain(fact);
    }
    for (const boilerplate of ['Quokkafooter', 'Zanzibarcookie', 'vault combination']) {
      const results = await search(boilerplate);
      expect(
        results.some((r) => r.content.includes(boilerplate) || r.content.includes('8842')),
        boilerplate,
      ).toBe(false);
    }
    // A visitor asks: the built-in responder answers from the crawled page and cites it.
    const token = (await http(`${e2e.url}/v2/identity/init`, { body: { apiKey, saVid: 'crawl-visitor' } })).body.sessionToken;
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    const reply = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'How much is the Pro plan?' },
      token,
    });
    expect(reply.body.steps[0].content[0].text).toContain('29 euros per month');
    const [answer] = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
    expect(answer.metadata.sources).toEqual([{ title: 'Pricing', url: `${site.origin}/pricing` }]);
    const documents = (await e2e.admin.call('GET', `/projects/${projectId}/documents?limit=100`)).data as Array<{ url: string }>;
    expect(documents.map((d) => d.url).sort()).toEqual(
      ['/', '/about', '/docs/manual.pdf', '/gift-cards', '/old-news', '/pricing'].map((p) => `${site.origin}${p}`).sort(),
    );
  });

  it('sync: a changed page is replaced, unchanged ones are skipped, removed and unlinked ones lose their documents', async () => {
    const before = (await e2e.admin.call('GET', sourcePath())) as Source;
    pages['/pricing'] = html('Pricing', '<p>The Pro plan costs 35 euros per month, billed yearly.</p>');
    delete pages['/about'];
    // No longer linked from the home page, nor listed in the sitemap.
    pages['/'] = html(
      'Acme home',
      `<p>Acme was founded in 1987 in the city of Lisbon by two engineers.</p>
       <p>Read the <a href="/docs/manual.pdf">device manual</a>.</p>`,
    );
    const synced = await http(`${e2e.url}/admin/v1${sourcePath()}/sync`, { method: 'POST', token: 'test-admin-token' });
    expect(synced.status).toBe(202);
    const done = await crawled(before.lastSyncAt!);
    // Home changed (a link less); pricing changed; manual and gift cards unchanged; about is gone (404).
    expect(done.pages).toMatchObject({ indexed: 2, unchanged: 2, failed: 1 });

    const pricing = await search('how much is the Pro plan');
    expect(pricing.find((r) => r.url === `${site.origin}/pricing`)?.content).toContain('35 euros');
    expect(pricing.some((r) => r.content.includes('29 euros'))).toBe(false);
    expect((await search('how fast does support answer tickets')).some((r) => r.content.includes('four hours'))).toBe(false);
    expect((await search('legacy gizmo glows purple')).some((r) => r.content.includes('purple'))).toBe(false);
    const documents = (await e2e.admin.call('GET', `/projects/${projectId}/documents?limit=100`)).data as Array<{ url: string }>;
    expect(documents.map((d) => d.url).sort()).toEqual(
      ['/', '/docs/manual.pdf', '/gift-cards', '/pricing'].map((p) => `${site.origin}${p}`).sort(),
    );
    expect((await pageList()).find((p) => p.url === `${site.origin}/about`)).toMatchObject({
      status: 'failed',
      error: 'gone (HTTP 404)',
      documentId: null,
    });
  });

  it('PATCH changes settings; DELETE removes the source and every document it made', async () => {
    const patched = await e2e.admin.call('PATCH', sourcePath(), { refreshIntervalHours: 24, exclude: ['/docs/**'] });
    expect(patched).toMatchObject({ refreshIntervalHours: 24, exclude: ['/docs/**'] });
    expect(Date.parse(patched.nextSyncAt)).toBeGreaterThan(Date.parse(patched.lastSyncAt));
    const listed = await e2e.admin.call('GET', `/projects/${projectId}/sources`);
    expect(listed).toMatchObject({ object: 'list', total: 1 });

    const deleted = await http(`${e2e.url}/admin/v1${sourcePath()}`, { method: 'DELETE', token: 'test-admin-token' });
    expect(deleted.status).toBe(204);
    expect((await e2e.admin.call('GET', `/projects/${projectId}/documents?limit=100`)).total).toBe(0);
    const gone = await http(`${e2e.url}/admin/v1${sourcePath()}`, { token: 'test-admin-token' });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('SOURCE_NOT_FOUND');
  });
});
