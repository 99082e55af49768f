import type { Source } from '@palaver/contracts';
import { privateServersAvailable } from '@palaver/platform/testing';
import { describe, expect, it } from 'vitest';
import { isAlive } from './support/child-app';
import { killHard, useChildCluster } from './support/child-cluster';
import { useFixture } from './support/fixture';
import { startSlowSite } from './support/slow-site';

const available = privateServersAvailable();
const PAGES = 20;
/** A crawl whose worker died runs again within 1.5 × this (the BullMQ lock). */
const JOB_STALL_TIMEOUT_MS = 4_000;

describe.skipIf(!available)(
  `sources in the cluster (BullMQ), on a NATS and a Redis of the test's own${available ? '' : ' (nats-server or redis-server not installed: skipped)'}`,
  () => {
    const site = useFixture(
      () => startSlowSite(PAGES),
      (started) => started.close(),
    );
    const cluster = useChildCluster(() => ({
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      CRAWL_CONCURRENCY: '1',
      CRAWL_DELAY_MS: '0',
      JOB_STALL_TIMEOUT_MS: String(JOB_STALL_TIMEOUT_MS),
    }));

    it('kill -9 of the search process mid-crawl: it is restarted, the crawl job runs again and resumes; every page indexed once', async () => {
      const { project } = await cluster.admin.createProject();
      const source: Source = await cluster.admin.call('POST', `/projects/${project.id}/sources`, {
        type: 'website',
        url: `${site.origin}/`,
      });
      const path = `/projects/${project.id}/sources/${source.id}`;
      await expect
        .poll(async () => ((await cluster.admin.call('GET', path)) as Source).pages.indexed, { timeout: 30_000, interval: 50 })
        .toBeGreaterThanOrEqual(5);
      const pid = cluster.pid('search');
      await killHard(pid);
      expect(isAlive(pid)).toBe(false);
      const hitsAtKill = site.hits.length;
      expect(new Set(site.hits.filter((hit) => hit.startsWith('/page-'))).size).toBeLessThan(PAGES - 1);
      await cluster.restarted('search', pid);

      await expect
        .poll(async () => ((await cluster.admin.call('GET', path).catch(() => ({ status: 'unreachable' }))) as Source).status, {
          timeout: 60_000,
          interval: 200,
        })
        .toBe('ready');
      const done: Source = await cluster.admin.call('GET', path);
      expect(done.pages).toMatchObject({ found: PAGES, indexed: PAGES, failed: 0, skipped: 0 });
      // Resumed, not started over: the home page is not fetched again; only the page in flight may be fetched twice.
      expect(site.hits.slice(hitsAtKill)).not.toContain('/');
      const pageHits = site.hits.filter((hit) => hit.startsWith('/page-'));
      expect(new Set(pageHits).size).toBe(PAGES - 1);
      expect(pageHits.length).toBeLessThanOrEqual(PAGES);
      const documents = (await cluster.admin.call('GET', `/projects/${project.id}/documents?limit=100`)).data as Array<{ url: string }>;
      expect(documents).toHaveLength(PAGES);
      expect(new Set(documents.map((d) => d.url)).size).toBe(PAGES);
    }, 120_000);
  },
);
