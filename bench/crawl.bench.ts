/**
 * Crawl throughput: the search service (embedded adapters, local embedder) crawls a local site
 * of PAGES HTML pages (each a few paragraphs, linked in a chain and a few ways across, with a
 * navigation bar and footer), first crawl and a re-sync where nothing changed. Pages per second
 * measured in this run, with the crawler's default pace (CRAWL_CONCURRENCY) and no delay.
 * Run: `npx tsx bench/crawl.bench.ts` (or `pnpm bench` for every benchmark).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SearchMessages, type Source } from '@palaver/contracts';
import { loadConfig } from '../packages/platform/src/index';
import { createTestInfrastructure } from '../packages/platform/src/testing/index';
import { startSearchService } from '../services/search/src/index';
import { formatTable, type Table } from './retrieval.bench';

const PAGES = Number(process.env.CRAWL_BENCH_PAGES ?? 500);
const WORDS = 'support shipping returns warranty battery invoice account delivery parcel refund order plan price store'.split(' ');

const pageHtml = (n: number): string => {
  const links = [n + 1, n + 2, (n * 7) % PAGES, (n * 13) % PAGES].filter((i) => i < PAGES).map((i) => `<a href="/p/${i}">Page ${i}</a>`);
  const paragraphs = Array.from({ length: 6 }, (_, p) =>
    Array.from({ length: 40 }, (_, w) => WORDS[(n * 31 + p * 7 + w) % WORDS.length]).join(' '),
  ).map((text, p) => `<h2>Section ${p}</h2><p>Page ${n} fact ${p}: ${text}.</p>`);
  return `<!doctype html><html><head><title>Page ${n}</title></head><body>
<header><nav><a href="/">Home</a> <a href="/p/0">First</a></nav></header>
<main><h1>Page ${n}</h1>${paragraphs.join('')}<p>${links.join(' ')}</p></main>
<footer>Copyright footer</footer></body></html>`;
};

const startSite = async (): Promise<{ origin: string; close(): Promise<void> }> => {
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    const match = /^\/p\/(\d+)$/.exec(path);
    if (path === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(0).replace('Page 0', 'Home'));
    else if (match && Number(match[1]) < PAGES) response.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(Number(match[1])));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export const runCrawlBench = async (): Promise<Table> => {
  const site = await startSite();
  const infra = await createTestInfrastructure({ config: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', CRAWL_DELAY_MS: 0 } });
  const service = await startSearchService(infra);
  const projectId = randomUUID();
  const send = infra.services;
  const untilReady = async (sourceId: string, after: string): Promise<Source> => {
    for (;;) {
      const source = await send.send(SearchMessages.getSource, { projectId, sourceId });
      if (source.status === 'failed') throw new Error(`crawl failed: ${source.error}`);
      if (source.status === 'ready' && (source.lastSyncAt ?? '') > after) return source;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    let started = performance.now();
    const created = await send.send(SearchMessages.createSource, {
      projectId,
      body: { type: 'website', url: `${site.origin}/`, maxPages: PAGES + 1 },
    });
    const first = await untilReady(created.id, '');
    const firstMs = performance.now() - started;
    started = performance.now();
    await send.send(SearchMessages.syncSource, { projectId, sourceId: created.id });
    const again = await untilReady(created.id, first.lastSyncAt!);
    const againMs = performance.now() - started;
    const row = (name: string, source: Source, ms: number) => [
      name,
      source.pages.found,
      source.pages.indexed,
      source.pages.unchanged,
      (ms / 1000).toFixed(1),
      (source.pages.found / (ms / 1000)).toFixed(1),
    ];
    return {
      title: `Crawl throughput: a local site of ${PAGES + 1} pages, search service embedded, local embedder`,
      columns: ['crawl', 'found', 'indexed', 'unchanged', 'seconds', 'pages/s'],
      rows: [row('first crawl', first, firstMs), row('re-sync, nothing changed', again, againMs)],
      notes: [
        `CRAWL_CONCURRENCY ${loadConfig({}).CRAWL_CONCURRENCY}, CRAWL_DELAY_MS 0; indexing includes chunking and embedding each page.`,
      ],
    };
  } finally {
    await service.close();
    await infra.cleanup();
    await site.close();
  }
};

export const printCrawlBench = async (): Promise<void> => {
  console.log(`${formatTable(await runCrawlBench())}\n`);
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await printCrawlBench();
