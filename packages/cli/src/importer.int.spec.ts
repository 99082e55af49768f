import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocumentRecord, pagedList, Qna, SearchResponse } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminApiError, AdminClient } from './admin-client';
import { readSources } from './import-sources';
import { importItems } from './importer';
import { startLocalProxy } from './testing/local-proxy';
import { ADMIN_TOKEN, type RunningApp, startRunningApp } from './testing/running-app';
import { writeTree } from './testing/write-tree';

const DocumentList = pagedList(DocumentRecord);
const QnaList = pagedList(Qna);

let running: RunningApp;

beforeAll(async () => {
  running = await startRunningApp();
});
afterAll(() => running?.stop());

const search = async (apiKey: string, q: string) => {
  const response = await fetch(`${running.url}/v2/search?apiKey=${apiKey}&q=${encodeURIComponent(q)}`);
  expect(response.status).toBe(200);
  return SearchResponse.parse(await response.json()).results;
};

describe('importing into a running Palaver through the admin API', () => {
  it('imports a folder and an NDJSON file: documents listed and searchable, Q&A entries listed', async () => {
    const { projectId, publishableKey } = await running.createProject();
    const folder = join(running.scratchDir, 'site');
    await writeTree(folder, {
      'help/warranty.md': '# Warranty\n\nEvery product has a two year warranty covering manufacturing defects.',
      'help/shipping.txt': 'Parcels are delivered within three business days by our courier partners.',
      'about.html': '<html><body><h1>About the company</h1><p>We build mechanical keyboards in Lisbon since 2009.</p></body></html>',
      'empty.md': '',
    });
    const ndjson = join(running.scratchDir, 'knowledge.ndjson');
    await writeFile(
      ndjson,
      [
        JSON.stringify({
          title: 'Aurora X2 Headphones',
          url: 'https://shop.example/p/ax2',
          content: 'Wireless noise-cancelling headphones with 30 hours of battery.',
          productId: 'AX2',
          price: 199,
          currency: 'EUR',
        }),
        JSON.stringify({ question: 'What are your opening hours?', answer: 'Monday to Friday, 9:00 to 17:00.' }),
        JSON.stringify({ question: 'Can I pay by invoice?', answer: 'Yes, for business customers.' }),
      ].join('\n'),
    );
    const fromFolder = await readSources(folder, { baseUrl: 'https://shop.example/docs' });
    const fromNdjson = await readSources(ndjson, {});
    expect(fromFolder.skipped.map((s) => s.source)).toEqual(['empty.md']);

    const client = new AdminClient({ url: running.url, token: ADMIN_TOKEN });
    const items = [...fromFolder.items, ...fromNdjson.items];
    const done: number[] = [];
    const report = await importItems(client, items, { projectId, concurrency: 3 }, { onItemDone: (_o, p) => done.push(p.done) });
    expect(report.failed).toEqual([]);
    expect(report.imported).toHaveLength(6);
    expect(done).toEqual([1, 2, 3, 4, 5, 6]);

    const documents = DocumentList.parse(await running.admin('GET', `/projects/${projectId}/documents?limit=100`));
    expect(documents.total).toBe(4);
    const byPath = Object.fromEntries(documents.data.map((d) => [d.path, d]));
    expect(byPath['help/warranty.md']).toMatchObject({ title: 'Warranty', url: 'https://shop.example/docs/help/warranty' });
    expect(byPath['help/shipping.txt']).toMatchObject({ title: 'shipping', url: 'https://shop.example/docs/help/shipping' });
    expect(byPath['about.html']).toMatchObject({ title: 'About the company', url: 'https://shop.example/docs/about' });
    expect(byPath['/p/ax2']).toMatchObject({ title: 'Aurora X2 Headphones', productId: 'AX2', price: 199 });
    expect(documents.data.map((d) => d.id).sort()).toEqual(
      report.imported
        .filter((i) => i.item.kind === 'document')
        .map((i) => i.id)
        .sort(),
    );

    expect((await search(publishableKey, 'how long is the warranty'))[0]?.title).toBe('Warranty');
    expect((await search(publishableKey, 'mechanical keyboards Lisbon'))[0]).toMatchObject({
      title: 'About the company',
      path: 'about.html',
    });
    expect((await search(publishableKey, 'noise cancelling headphones'))[0]).toMatchObject({
      title: 'Aurora X2 Headphones',
      productId: 'AX2',
    });

    const qnas = QnaList.parse(await running.admin('GET', `/projects/${projectId}/qnas?limit=100`));
    expect(qnas.data.map((q) => [q.question, q.answer]).sort()).toEqual([
      ['Can I pay by invoice?', 'Yes, for business customers.'],
      ['What are your opening hours?', 'Monday to Friday, 9:00 to 17:00.'],
    ]);
  });

  it('reports what the server refuses as failed items, with the reason', async () => {
    const { projectId } = await running.createProject();
    const client = new AdminClient({ url: running.url, token: ADMIN_TOKEN });
    const report = await importItems(
      client,
      [{ kind: 'document', source: 'x.ndjson:1', body: { title: 'Fine', url: 'https://site.example/fine', content: 'ok' } }],
      { projectId: '00000000-0000-4000-8000-000000000000' },
    );
    expect(report.imported).toEqual([]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]?.reason).toMatch(/^404 PROJECT_NOT_FOUND: /);
    expect(DocumentList.parse(await running.admin('GET', `/projects/${projectId}/documents`)).total).toBe(0);
  });

  it('checks the project, the token and the server before importing', async () => {
    const { projectId } = await running.createProject();
    await expect(new AdminClient({ url: running.url, token: ADMIN_TOKEN }).getProject(projectId)).resolves.toMatchObject({ id: projectId });
    await expect(new AdminClient({ url: running.url, token: 'wrong' }).getProject(projectId)).rejects.toMatchObject({ status: 401 });
    await expect(
      new AdminClient({ url: running.url, token: ADMIN_TOKEN }).getProject('00000000-0000-4000-8000-000000000000'),
    ).rejects.toMatchObject({ status: 404, code: 'PROJECT_NOT_FOUND' });
    const unreachable = await new AdminClient({ url: 'http://127.0.0.1:1', token: ADMIN_TOKEN })
      .getProject(projectId)
      .catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(AdminApiError);
    expect(unreachable).toMatchObject({ status: 0, message: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:1: /) });
  });

  it('waits Retry-After on a 429 and sends the item again, once', async () => {
    const { projectId } = await running.createProject();
    let refused = false;
    const proxy = await startLocalProxy(running.url, {
      intercept: (request) => {
        if (request.method !== 'POST' || refused) return undefined;
        refused = true;
        return { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'too many requests', code: 'RATE_LIMITED' } } };
      },
    });
    try {
      const client = new AdminClient({ url: proxy.url, token: ADMIN_TOKEN });
      const retries: { attempt: number; delayMs: number; reason: string }[] = [];
      const started = Date.now();
      const report = await importItems(
        client,
        [
          {
            kind: 'document',
            source: 'x.ndjson:1',
            body: { title: 'Retried page', url: 'https://site.example/retried', content: 'Sent twice, stored once.' },
          },
        ],
        { projectId },
        { onRetry: (_item, retry) => retries.push(retry) },
      );
      const elapsed = Date.now() - started;

      expect(retries).toEqual([{ attempt: 1, delayMs: 1000, reason: '429 RATE_LIMITED: too many requests' }]);
      expect(elapsed).toBeGreaterThanOrEqual(1000);
      expect(report.failed).toEqual([]);
      expect(report.imported).toHaveLength(1);
      expect(proxy.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
      const documents = DocumentList.parse(await running.admin('GET', `/projects/${projectId}/documents`));
      expect(documents.data.map((d) => d.title)).toEqual(['Retried page']);
    } finally {
      await proxy.close();
    }
  });
});
