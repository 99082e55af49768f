import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Source } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildApp, isAlive, startChildApp } from './support/child-app';
import { http } from './support/e2e-app';
import { type SlowSite, startSlowSite } from './support/slow-site';

const PAGES = 24;
const ADMIN_TOKEN = 'adm_sources_resume_spec';

describe('sources: a crawl killed mid-way resumes', () => {
  let site: SlowSite;
  let dataDir: string;
  let second: ChildApp | null = null;

  beforeAll(async () => {
    site = await startSlowSite(PAGES);
    dataDir = await mkdtemp(join(tmpdir(), 'palaver-crawl-kill-'));
  });
  afterAll(async () => {
    await second?.kill('SIGKILL');
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 of `pnpm start` mid-crawl: after the restart the crawl goes on from where it was, every page indexed once', async () => {
    const env = {
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ADMIN_TOKEN,
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      CRAWL_CONCURRENCY: '1',
      CRAWL_DELAY_MS: '0',
    };
    const admin = (app: ChildApp, method: string, path: string, body?: unknown) =>
      http(`${app.url}/admin/v1${path}`, { method, body, token: ADMIN_TOKEN });

    const first = await startChildApp(env);
    const project = (await admin(first, 'POST', '/projects', { name: 'Slow site' })).body;
    const created = await admin(first, 'POST', `/projects/${project.id}/sources`, { type: 'website', url: `${site.origin}/` });
    expect(created.status).toBe(201);
    const sourcePath = `/projects/${project.id}/sources/${created.body.id}`;
    await expect
      .poll(async () => ((await admin(first, 'GET', sourcePath)).body as Source).pages.indexed, { timeout: 30_000, interval: 50 })
      .toBeGreaterThanOrEqual(6);
    await first.kill('SIGKILL');
    expect(isAlive(first.process.pid!)).toBe(false);
    const hitsAtKill = site.hits.length;
    expect(new Set(site.hits.filter((hit) => hit.startsWith('/page-'))).size).toBeLessThan(PAGES - 1);

    second = await startChildApp(env);
    const app = second;
    await expect
      .poll(async () => ((await admin(app, 'GET', sourcePath)).body as Source).status, { timeout: 60_000, interval: 100 })
      .toBe('ready');
    const done = (await admin(app, 'GET', sourcePath)).body as Source;
    expect(done.pages).toMatchObject({ found: PAGES, indexed: PAGES, failed: 0, skipped: 0 });

    // Resumed, not started over: the home page is not fetched again, and of the other pages only
    // the one in flight at the kill (one request at a time) may be fetched twice.
    expect(site.hits.slice(hitsAtKill)).not.toContain('/');
    expect(site.hits.filter((hit) => hit === '/')).toHaveLength(1);
    const pageHits = site.hits.filter((hit) => hit.startsWith('/page-'));
    expect(new Set(pageHits).size).toBe(PAGES - 1);
    expect(pageHits.length).toBeLessThanOrEqual(PAGES);

    // Every page is one document, none twice.
    const documents = (await admin(app, 'GET', `/projects/${project.id}/documents?limit=100`)).body.data as Array<{ url: string }>;
    expect(documents).toHaveLength(PAGES);
    expect(new Set(documents.map((d) => d.url)).size).toBe(PAGES);
  }, 180_000);
});
