/**
 * Crawl throughput: the search service (embedded adapters, local embedder) crawls a local site of
 * PAGES pages (six sections each, a navigation bar and a footer, linked in a chain and across),
 * first crawl and a re-sync where nothing changed, at the crawler's default concurrency and no delay.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SearchMessages, type Source } from '@palaver/contracts';
import { loadConfig } from '../packages/platform/src/index';
import { createTestInfrastructure } from '../packages/platform/src/testing/index';
import { startSearchService } from '../services/search/src/index';
import { type StaticPage, startStaticSite } from '../test/support/static-site';
import type { Table } from './common';

const PAGES = Number(process.env.CRAWL_BENCH_PAGES ?? 500);
const WORDS = 'support shipping returns warranty battery invoice account delivery parcel refund order plan price store'.split(' ');

const page = (n: number): StaticPage => {
  const links = [n + 1, n + 2, (n * 7) % PAGES, (n * 13) % PAGES].filter((i) => i < PAGES).map((i) => `<a href="/p/${i}">Page ${i}</a>`);
  const sections = Array.from({ length: 6 }, (_, p) => {
    const text = Array.from({ length: 40 }, (_, w) => WORDS[(n * 31 + p * 7 + w) % WORDS.length]).join(' ');
    return `<h2>Section ${p}</h2><p>Page ${n} fact ${p}: ${text}.</p>`;
  });
  const body = `<!doctype html><html><head><title>Page ${n}</title></head><body><header><nav><a href="/">Home</a></nav></header>
<main><h1>Page ${n}</h1>${sections.join('')}<p>${links.join(' ')}</p></main><footer>Copyright footer</footer></body></html>`;
  return { type: 'text/html', body };
};

export const crawlBench = async (): Promise<Table[]> => {
  const pages: Record<string, StaticPage> = { '/': page(0) };
  for (let n = 0; n < PAGES; n++) pages[`/p/${n}`] = page(n);
  const site = await startStaticSite(pages);
  const infra = await createTestInfrastructure({ config: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', CRAWL_DELAY_MS: 0 } });
  const service = await startSearchService(infra);
  const projectId = randomUUID();
  const send = infra.services;
  /** Times a crawl until the source is ready with a sync newer than `after`. */
  const crawl = async (name: string, start: () => Promise<{ id: string }>, after = '') => {
    const started = performance.now();
    const { id } = await start();
    for (;;) {
      const source: Source = await send.send(SearchMessages.getSource, { projectId, sourceId: id });
      if (source.status === 'failed') throw new Error(`crawl failed: ${source.error}`);
      if (source.status === 'ready' && (source.lastSyncAt ?? '') > after) {
        const seconds = (performance.now() - started) / 1000;
        const { found, indexed, unchanged } = source.pages;
        return { source, row: [name, found, indexed, unchanged, seconds.toFixed(1), (found / seconds).toFixed(1)] };
      }
      await sleep(50);
    }
  };
  try {
    const body = { type: 'website' as const, url: `${site.origin}/`, maxPages: PAGES + 1 };
    const first = await crawl('first crawl', () => send.send(SearchMessages.createSource, { projectId, body }));
    const { id, lastSyncAt } = first.source;
    const resync = () => send.send(SearchMessages.syncSource, { projectId, sourceId: id }).then(() => ({ id }));
    const again = await crawl('re-sync, nothing changed', resync, lastSyncAt!);
    const { CRAWL_CONCURRENCY } = loadConfig({});
    return [
      {
        title: `Crawl throughput: a local site of ${PAGES + 1} pages, search service embedded, local embedder`,
        columns: ['crawl', 'found', 'indexed', 'unchanged', 'seconds', 'pages/s'],
        rows: [first.row, again.row],
        notes: [`CRAWL_CONCURRENCY ${CRAWL_CONCURRENCY}, CRAWL_DELAY_MS 0; indexing includes chunking and embedding each page.`],
      },
    ];
  } finally {
    await service.close();
    await infra.cleanup();
    await site.close();
  }
};
