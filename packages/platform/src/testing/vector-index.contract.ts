import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VectorIndex, VectorPoint } from '../vector-index/vector-index.port';

export interface VectorIndexFixture {
  vectors: VectorIndex;
  /** Removes what the test left behind (after `vectors.close()`), e.g. the collections it made. */
  cleanup?(collections: string[]): Promise<void>;
}

const cosine = (a: number[], b: number[]): number => {
  const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return dot / (norm(a) * norm(b));
};

/** The behaviour every VectorIndex adapter shares; `factory` gives a fresh, connected instance. */
export function describeVectorIndexContract(adapterName: string, factory: () => Promise<VectorIndexFixture>): void {
  describe(`VectorIndex contract: ${adapterName}`, () => {
    let fixture: VectorIndexFixture;
    let vectors: VectorIndex;
    let made: string[];
    const collection = async (dimensions = 4): Promise<string> => {
      const name = `test_${randomUUID().replaceAll('-', '')}`;
      made.push(name);
      await vectors.ensureCollection(name, dimensions);
      return name;
    };
    const point = (vector: number[], payload: Record<string, unknown>): VectorPoint => ({
      id: randomUUID(),
      vector,
      payload,
    });

    beforeEach(async () => {
      fixture = await factory();
      vectors = fixture.vectors;
      made = [];
    });

    afterEach(async () => {
      await vectors.close();
      await fixture.cleanup?.(made);
    });

    it('answers [] when searching a collection that does not exist', async () => {
      expect(await vectors.search(`missing_${randomUUID()}`, [1, 0, 0, 0], { limit: 5, filter: {} })).toEqual([]);
    });

    it('answers [] for an empty collection', async () => {
      const c = await collection();
      expect(await vectors.search(c, [1, 0, 0, 0], { limit: 5, filter: {} })).toEqual([]);
    });

    it('accepts ensureCollection again with the same dimensions, keeping the points', async () => {
      const c = await collection(3);
      const p = point([1, 0, 0], { projectId: 'p1' });
      await vectors.upsert(c, [p]);
      await vectors.ensureCollection(c, 3);
      expect((await vectors.search(c, [1, 0, 0], { limit: 5, filter: {} })).map((h) => h.id)).toEqual([p.id]);
    });

    it('refuses ensureCollection with other dimensions, naming both', async () => {
      const c = await collection(3);
      await expect(vectors.ensureCollection(c, 5)).rejects.toThrow(/3.*5|5.*3/);
    });

    it('returns the nearest points first, with cosine scores and payloads', async () => {
      const c = await collection();
      const query = [1, 0.2, 0, 0];
      const near = point([0.9, 0.3, 0, 0], { projectId: 'p1', documentId: 'd1', kind: 'document', text: 'near' });
      const middle = point([0.5, 0.5, 0.5, 0], { projectId: 'p1', documentId: 'd2', kind: 'document', text: 'middle' });
      const far = point([0, 0, 0, 1], { projectId: 'p1', documentId: 'd3', kind: 'qna', text: 'far' });
      await vectors.upsert(c, [far, near, middle]);
      const hits = await vectors.search(c, query, { limit: 10, filter: {} });
      expect(hits.map((h) => h.id)).toEqual([near.id, middle.id, far.id]);
      expect(hits[0]!.score).toBeCloseTo(cosine(query, near.vector), 4);
      expect(hits[1]!.score).toBeCloseTo(cosine(query, middle.vector), 4);
      expect(hits[2]!.score).toBeCloseTo(0, 4);
      expect(hits[0]!.payload).toEqual(near.payload);
    });

    it('scores by direction only: scaled vectors score as their unit vectors', async () => {
      const c = await collection(3);
      const p = point([10, 0, 0], { projectId: 'p1' });
      await vectors.upsert(c, [p]);
      const [hit] = await vectors.search(c, [0.001, 0.001, 0], { limit: 1, filter: {} });
      expect(hit!.score).toBeCloseTo(Math.SQRT1_2, 4);
    });

    it('returns at most `limit` hits', async () => {
      const c = await collection(2);
      await vectors.upsert(
        c,
        Array.from({ length: 10 }, (_, i) => point([1, i / 10], { projectId: 'p1', documentId: `d${i}` })),
      );
      const hits = await vectors.search(c, [1, 0], { limit: 3, filter: {} });
      expect(hits.map((h) => h.payload.documentId)).toEqual(['d0', 'd1', 'd2']);
    });

    it('keeps only hits whose payload matches every filter key', async () => {
      const c = await collection(2);
      await vectors.upsert(c, [
        point([1, 0], { projectId: 'p1', kind: 'document', documentId: 'a' }),
        point([1, 0.1], { projectId: 'p1', kind: 'qna', documentId: 'b' }),
        point([1, 0.2], { projectId: 'p2', kind: 'document', documentId: 'c' }),
        point([1, 0.3], { projectId: 'p1', kind: 'document', documentId: 'd' }),
      ]);
      const ids = async (filter: Record<string, string>) =>
        (await vectors.search(c, [1, 0], { limit: 10, filter })).map((h) => h.payload.documentId);
      expect(await ids({ projectId: 'p1' })).toEqual(['a', 'b', 'd']);
      expect(await ids({ projectId: 'p1', kind: 'document' })).toEqual(['a', 'd']);
      expect(await ids({ projectId: 'p2', kind: 'qna' })).toEqual([]);
      expect(await ids({ projectId: 'p3' })).toEqual([]);
    });

    it('returns payloads that a caller cannot change in the index', async () => {
      const c = await collection(2);
      const p = point([1, 0], { projectId: 'p1', tags: ['a'] });
      await vectors.upsert(c, [p]);
      const [hit] = await vectors.search(c, [1, 0], { limit: 1, filter: {} });
      try {
        (hit!.payload.tags as string[]).push('b');
        hit!.payload.projectId = 'p2';
      } catch {
        // a frozen payload refuses the change: as good as a copy
      }
      const [again] = await vectors.search(c, [1, 0], { limit: 1, filter: { projectId: 'p1' } });
      expect(again!.payload).toEqual({ projectId: 'p1', tags: ['a'] });
    });

    it('scores only the points named by ids, still under the filter, best first', async () => {
      const c = await collection(2);
      const a = point([1, 0], { projectId: 'p1' });
      const b = point([0.6, 0.8], { projectId: 'p1' });
      const other = point([1, 0], { projectId: 'p2' });
      const unnamed = point([1, 0.01], { projectId: 'p1' });
      await vectors.upsert(c, [a, b, other, unnamed]);
      const hits = await vectors.search(c, [1, 0], {
        limit: 10,
        filter: { projectId: 'p1' },
        ids: [b.id, a.id, other.id, randomUUID()],
      });
      expect(hits.map((h) => h.id)).toEqual([a.id, b.id]);
      expect(hits[1]!.score).toBeCloseTo(0.6, 4);
    });

    it('replaces a point upserted again with the same id', async () => {
      const c = await collection(2);
      const p = point([1, 0], { projectId: 'p1', version: 1 });
      await vectors.upsert(c, [p]);
      await vectors.upsert(c, [{ ...p, vector: [0, 1], payload: { projectId: 'p1', version: 2 } }]);
      const hits = await vectors.search(c, [0, 1], { limit: 10, filter: {} });
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ id: p.id, payload: { projectId: 'p1', version: 2 } });
      expect(hits[0]!.score).toBeCloseTo(1, 4);
    });

    it('deletes exactly the points matching a filter', async () => {
      const c = await collection(2);
      await vectors.upsert(c, [
        point([1, 0], { projectId: 'p1', documentId: 'd1' }),
        point([1, 0.1], { projectId: 'p1', documentId: 'd1' }),
        point([1, 0.2], { projectId: 'p1', documentId: 'd2' }),
        point([1, 0.3], { projectId: 'p2', documentId: 'd1' }),
      ]);
      await vectors.deleteWhere(c, { projectId: 'p1', documentId: 'd1' });
      const left = await vectors.search(c, [1, 0], { limit: 10, filter: {} });
      expect(left.map((h) => [h.payload.projectId, h.payload.documentId])).toEqual([
        ['p1', 'd2'],
        ['p2', 'd1'],
      ]);
    });

    it('refuses vectors of the wrong dimensions with a clear error', async () => {
      const c = await collection(3);
      await expect(vectors.upsert(c, [point([1, 0], { projectId: 'p1' })])).rejects.toThrow(/dimension/i);
      await expect(vectors.search(c, [1, 0, 0, 0], { limit: 1, filter: {} })).rejects.toThrow(/dimension/i);
    });

    it('refuses vectors with a non-finite component, also where no point could match', async () => {
      const c = await collection(3);
      await vectors.upsert(c, [point([1, 0, 0], { projectId: 'p1' })]);
      await expect(vectors.upsert(c, [point([1, Number.NaN, 0], { projectId: 'p1' })])).rejects.toThrow();
      await expect(vectors.search(c, [0, Number.POSITIVE_INFINITY, 1], { limit: 1, filter: { projectId: 'p1' } })).rejects.toThrow();
      await expect(vectors.search(c, [0, Number.NaN, 1], { limit: 1, filter: { projectId: 'nobody' } })).rejects.toThrow();
      expect(await vectors.search(c, [2, 0, 0], { limit: 1, filter: { projectId: 'p1' } })).toHaveLength(1);
    });
  });
}
