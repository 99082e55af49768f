import { randomUUID } from 'node:crypto';
import { SearchMessages as M } from '@palaver/contracts';
import { type Embedder, LocalEmbedder } from '@palaver/platform';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pointId } from '../domain/point-id';
import { KNOWLEDGE_COLLECTION } from '../repositories/knowledge-vectors';
import { FIXTURE_PAGES } from '../testing/knowledge.fixture';
import { type SearchHarness, startSearchHarness } from '../testing/search.harness';

let h: SearchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The local embedder, except that embedding documents waits while `held` (a crash mid-upload freezes there). */
class HoldingEmbedder implements Embedder {
  private readonly inner = new LocalEmbedder();
  readonly name = this.inner.name;
  readonly dimensions = this.inner.dimensions;
  readonly termWeighting = this.inner.termWeighting;
  held: Promise<void> | null = null;
  reached = false;
  async embed(texts: string[], kind: 'query' | 'document'): Promise<number[][]> {
    if (kind === 'document' && this.held) {
      this.reached = true;
      await this.held;
    }
    return this.inner.embed(texts, kind);
  }
}

describe('documents across a crash mid-upload', () => {
  it('never returns chunks of a document that has no live record (left by an upload killed after indexing)', async () => {
    h = await startSearchHarness();
    const projectId = randomUUID();
    const kept = await h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.shipping });
    // What an upload killed between indexing its chunks and storing its record leaves behind.
    const orphanId = randomUUID();
    const version = randomUUID();
    const text = 'Zanzibar parcels travel by hovercraft on Tuesdays.';
    const [vector] = await h.infra.embedder.embed([text], 'document');
    await h.infra.vectors.upsert(KNOWLEDGE_COLLECTION, [
      {
        id: pointId(orphanId, version, 0),
        vector: vector!,
        payload: {
          projectId,
          documentId: orphanId,
          version,
          kind: 'chunk',
          chunkIndex: 0,
          headings: [],
          title: 'Orphan',
          url: 'https://shop.example/orphan',
          path: '/orphan',
          content: text,
        },
      },
    ]);
    const search = await h.send(M.search, { projectId, q: 'Zanzibar hovercraft parcels', size: 10 });
    expect(search.results.map((r) => r.url)).not.toContain('https://shop.example/orphan');
    const retrieved = await h.send(M.retrieve, { projectId, query: 'Zanzibar hovercraft parcels', qnaLimit: 0, chunkLimit: 10 });
    expect(JSON.stringify(retrieved)).not.toContain('hovercraft');
    // The live document is still found.
    const shipping = await h.send(M.search, { projectId, q: 'shipping', size: 10 });
    expect(shipping.results.map((r) => r.url)).toContain(kept.url);
  });

  it('lists a document being indexed, so one left by a crash can be deleted with its chunks', async () => {
    const embedder = new HoldingEmbedder();
    h = await startSearchHarness({ embedder });
    const projectId = randomUUID();
    let release!: () => void;
    embedder.held = new Promise((resolve) => {
      release = resolve;
    });
    const creating = h.send(M.createDocument, { projectId, body: FIXTURE_PAGES.returns }).catch((err: unknown) => err);
    await vi.waitFor(() => expect(embedder.reached).toBe(true), { timeout: 5_000, interval: 10 });
    const listed = await h.send(M.listDocuments, { projectId, limit: 10, offset: 0 });
    expect(listed.data.map((d) => d.title)).toEqual([FIXTURE_PAGES.returns.title]);
    expect(listed.data[0]!.chunkCount).toBe(0);
    expect(await h.send(M.deleteDocument, { projectId, documentId: listed.data[0]!.id })).toEqual({ ok: true });
    release();
    await creating;
    expect((await h.send(M.listDocuments, { projectId, limit: 10, offset: 0 })).total).toBe(0);
    const [probe] = await h.infra.embedder.embed(['x'], 'query');
    const points = await h.infra.vectors.search(
      KNOWLEDGE_COLLECTION,
      probe!.map(() => 0),
      { limit: 100, filter: { projectId, kind: 'chunk' } },
    );
    expect(points).toEqual([]);
  });
});
