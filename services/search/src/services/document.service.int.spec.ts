import { randomUUID } from 'node:crypto';
import { DocumentRecord, SearchMessages as M } from '@palaver/contracts';
import { rejection } from '@palaver/platform/testing';
import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_COLLECTION } from '../repositories/knowledge-vectors';
import { FIXTURE_PAGES } from '../testing/knowledge.fixture';
import { searchPerTest } from '../testing/search-per-test';

const t = searchPerTest();
const projectId = randomUUID();
const otherProjectId = randomUUID();

/** Every chunk point of the project's documents, read back through the vector index. */
const chunkPoints = async (project: string) => {
  const [probe] = await t.h.infra.embedder.embed(['x'], 'query');
  return t.h.infra.vectors.search(
    KNOWLEDGE_COLLECTION,
    probe!.map(() => 0),
    { limit: 10_000, filter: { projectId: project, kind: 'chunk' } },
  );
};

const search = async (q: string, project = projectId) => (await t.h.send(M.search, { projectId: project, q, size: 50 })).results;

describe('search service: documents', () => {
  it('creates a document: chunked, indexed and searchable when the call returns', async () => {
    const doc = await t.h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.shipping });
    expect(DocumentRecord.parse(doc)).toEqual(doc);
    expect(doc).toMatchObject({
      projectId,
      title: 'Shipping',
      url: FIXTURE_PAGES.shipping.url,
      path: '/help/shipping',
      content: FIXTURE_PAGES.shipping.content,
      chunkCount: 2,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
    });
    const points = await chunkPoints(projectId);
    expect(points).toHaveLength(2);
    expect(points.map((p) => p.payload)).toContainEqual(
      expect.objectContaining({
        projectId,
        documentId: doc.id,
        kind: 'chunk',
        chunkIndex: 1,
        headings: ['Shipping', 'Costs'],
        title: 'Shipping',
        url: FIXTURE_PAGES.shipping.url,
        path: '/help/shipping',
      }),
    );
    expect((await search('shipping fee'))[0]!.content).toContain('flat fee of 4.90 EUR');
    expect(await t.h.send(M.getDocument, { projectId, documentId: doc.id })).toEqual(doc);
  });

  it('keeps an explicit path and the product fields', async () => {
    const doc = await t.h.send(M.createDocument, { projectId, body: { ...FIXTURE_PAGES.product, path: 'Shop > Audio' } });
    expect(doc).toMatchObject({ path: 'Shop > Audio', price: 199, currency: 'EUR', productId: 'AUR-X2' });
    expect((await search('aurora'))[0]).toMatchObject({ path: 'Shop > Audio', price: 199, vendor: 'Aurora' });
  });

  it('update replaces the chunks: the old text is gone from search, the new text is found', async () => {
    const doc = await t.h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.warranty });
    t.clock.advance(60_000);
    const updated = await t.h.send(M.updateDocument, {
      projectId,
      documentId: doc.id,
      patch: { content: '# Warranty\nAll appliances carry a three year guarantee, batteries included.', price: 10 },
    });
    expect(updated).toMatchObject({
      id: doc.id,
      title: 'Warranty',
      chunkCount: 1,
      price: 10,
      createdAt: doc.createdAt,
      updatedAt: '2026-03-01T10:01:00.000Z',
    });
    const points = await chunkPoints(projectId);
    expect(points).toHaveLength(1);
    expect(points[0]!.payload.content).toContain('three year guarantee');
    const results = await search('warranty manufacturing defects');
    expect(results).toHaveLength(1);
    expect(results[0]!.content).not.toContain('manufacturing');
    expect(results[0]).toMatchObject({ content: expect.stringContaining('three year'), price: 10 });
    expect(await t.h.send(M.getDocument, { projectId, documentId: doc.id })).toEqual(updated);
  });

  it('update of the title or URL re-indexes with the new values; a path taken from the URL follows it', async () => {
    const doc = await t.h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.hours });
    const moved = await t.h.send(M.updateDocument, {
      projectId,
      documentId: doc.id,
      patch: { title: 'Lyon store', url: 'https://shop.example.com/stores/lyon-centre' },
    });
    expect(moved).toMatchObject({ title: 'Lyon store', path: '/stores/lyon-centre', content: doc.content });
    expect((await search('opening hours'))[0]).toMatchObject({ title: 'Lyon store', path: '/stores/lyon-centre' });

    const named = await t.h.send(M.updateDocument, { projectId, documentId: doc.id, patch: { path: 'Stores > Lyon' } });
    const again = await t.h.send(M.updateDocument, {
      projectId,
      documentId: doc.id,
      patch: { url: 'https://shop.example.com/lyon' },
    });
    expect(named.path).toBe('Stores > Lyon');
    expect(again.path).toBe('Stores > Lyon');
  });

  it('delete removes the document and its chunks', async () => {
    const doc = await t.h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.returns });
    const kept = await t.h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.shipping });
    expect(await t.h.send(M.deleteDocument, { projectId, documentId: doc.id })).toEqual({ ok: true });
    expect((await chunkPoints(projectId)).every((p) => p.payload.documentId === kept.id)).toBe(true);
    expect((await search('refund')).map((r) => r.url)).not.toContain(FIXTURE_PAGES.returns.url);
    const err = await rejection(t.h.send(M.getDocument, { projectId, documentId: doc.id }));
    expect(err.code).toBe('DOCUMENT_NOT_FOUND');
    expect(err.details).toEqual({ documentId: doc.id });
    expect((await rejection(t.h.send(M.deleteDocument, { projectId, documentId: doc.id }))).code).toBe('DOCUMENT_NOT_FOUND');
  });

  it("answers DOCUMENT_NOT_FOUND for unknown ids and for another project's documents", async () => {
    const theirs = await t.h.send(M.createDocument, { projectId: otherProjectId, body: FIXTURE_PAGES.privacy });
    const unknown = randomUUID();
    for (const call of [
      t.h.send(M.getDocument, { projectId, documentId: unknown }),
      t.h.send(M.getDocument, { projectId, documentId: theirs.id }),
      t.h.send(M.updateDocument, { projectId, documentId: theirs.id, patch: { title: 'mine now' } }),
      t.h.send(M.deleteDocument, { projectId, documentId: theirs.id }),
    ]) {
      const err = await rejection(call);
      expect(err.code).toBe('DOCUMENT_NOT_FOUND');
      expect(err.details?.documentId).toBeDefined();
    }
    expect(await t.h.send(M.getDocument, { projectId: otherProjectId, documentId: theirs.id })).toEqual(theirs);
    expect(await chunkPoints(otherProjectId)).toHaveLength(1);
    expect(await chunkPoints(projectId)).toHaveLength(0);
  });

  it("lists a project's documents newest first, paged, with the total", async () => {
    const created = [];
    for (const body of Object.values(FIXTURE_PAGES)) {
      created.push(await t.h.send(M.createDocument, { projectId, body }));
      t.clock.advance(1000);
    }
    await t.h.send(M.createDocument, { projectId: otherProjectId, body: FIXTURE_PAGES.shipping });
    const newestFirst = created.map((d) => d.id).reverse();

    const first = await t.h.send(M.listDocuments, { projectId, limit: 4, offset: 0 });
    expect(first).toMatchObject({ object: 'list', total: created.length, limit: 4, offset: 0 });
    expect(first.data.map((d) => d.id)).toEqual(newestFirst.slice(0, 4));
    const rest = await t.h.send(M.listDocuments, { projectId, limit: 100, offset: 4 });
    expect(rest.data.map((d) => d.id)).toEqual(newestFirst.slice(4));
    expect((await t.h.send(M.listDocuments, { projectId, offset: null })).limit).toBe(20);
    expect((await t.h.sendRaw(M.listDocuments, { projectId, limit: 101 })).ok).toBe(false);
    expect((await t.h.sendRaw(M.listDocuments, { projectId, limit: 0 })).ok).toBe(false);
  });

  it('rejects invalid bodies before touching anything', async () => {
    for (const body of [
      { ...FIXTURE_PAGES.shipping, url: 'not a url' },
      { ...FIXTURE_PAGES.shipping, title: '' },
      { ...FIXTURE_PAGES.shipping, content: '' },
      { ...FIXTURE_PAGES.shipping, price: 'cheap' },
    ]) {
      const reply = await t.h.sendRaw(M.createDocument, { projectId, body });
      expect(reply.ok).toBe(false);
    }
    expect((await t.h.send(M.listDocuments, { projectId, offset: 0 })).total).toBe(0);
  });
});
