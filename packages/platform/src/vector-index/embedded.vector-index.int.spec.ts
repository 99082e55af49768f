import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeVectorIndexContract } from '../testing/vector-index.contract';
import { EmbeddedVectorIndex } from './embedded.vector-index';

const tempDirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-vectors-'));
  tempDirs.push(dir);
  return dir;
};

afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describeVectorIndexContract('EmbeddedVectorIndex', async () => ({ vectors: await EmbeddedVectorIndex.open(await tempDir()) }));

describe('EmbeddedVectorIndex persistence', () => {
  let dir: string;
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  beforeEach(async () => {
    dir = await tempDir();
  });

  it('finds after reopening what was upserted, minus what was deleted', async () => {
    const first = await EmbeddedVectorIndex.open(dir);
    await first.ensureCollection('kb', 2);
    await first.upsert('kb', [
      { id: id(1), vector: [3, 4], payload: { projectId: 'p1', documentId: 'd1' } },
      { id: id(2), vector: [1, 0], payload: { projectId: 'p1', documentId: 'd2' } },
      { id: id(3), vector: [0, 1], payload: { projectId: 'p2', documentId: 'd3' } },
    ]);
    await first.upsert('kb', [{ id: id(2), vector: [0, 2], payload: { projectId: 'p1', documentId: 'd2', v: 2 } }]);
    await first.deleteWhere('kb', { documentId: 'd3' });
    await first.close();

    const second = await EmbeddedVectorIndex.open(dir);
    const hits = await second.search('kb', [0, 1], { limit: 10, filter: {} });
    expect(hits.map((h) => h.id)).toEqual([id(2), id(1)]);
    expect(hits[0]!.payload).toEqual({ projectId: 'p1', documentId: 'd2', v: 2 });
    expect(hits[1]!.score).toBeCloseTo(0.8, 6);
    await expect(second.ensureCollection('kb', 3)).rejects.toThrow(/dimensions/);
    await second.close();
  });

  it('compact rewrites the log without deleted points, which stay on disk until then', async () => {
    const index = await EmbeddedVectorIndex.open(dir);
    await index.ensureCollection('kb', 2);
    await index.upsert('kb', [
      { id: id(1), vector: [1, 0], payload: { projectId: 'gone', text: 'ERASED-TEXT' } },
      { id: id(2), vector: [0, 1], payload: { projectId: 'kept', text: 'KEPT-TEXT' } },
    ]);
    await index.deleteWhere('kb', { projectId: 'gone' });
    const log = () => readFile(join(dir, 'vectors.jsonl'), 'utf8');
    expect(await log()).toContain('ERASED-TEXT');
    await index.compact();
    expect(await log()).not.toContain('ERASED-TEXT');
    expect(await log()).toContain('KEPT-TEXT');
    await index.upsert('kb', [{ id: id(3), vector: [1, 1], payload: { projectId: 'kept' } }]);
    await index.close();

    const reopened = await EmbeddedVectorIndex.open(dir);
    expect((await reopened.search('kb', [0, 1], { limit: 10, filter: {} })).map((h) => h.id)).toEqual([id(2), id(3)]);
    await reopened.close();
  });

  it('tolerates a torn last line, and keeps appending cleanly after it', async () => {
    const first = await EmbeddedVectorIndex.open(dir);
    await first.ensureCollection('kb', 2);
    await first.upsert('kb', [{ id: id(1), vector: [1, 0], payload: { projectId: 'p1' } }]);
    await first.close();
    await appendFile(join(dir, 'vectors.jsonl'), '{"op":"upsert","collection":"kb","points":[{"id":"');

    const second = await EmbeddedVectorIndex.open(dir);
    expect((await second.search('kb', [1, 0], { limit: 10, filter: {} })).map((h) => h.id)).toEqual([id(1)]);
    await second.upsert('kb', [{ id: id(2), vector: [0, 1], payload: { projectId: 'p1' } }]);
    await second.close();

    const third = await EmbeddedVectorIndex.open(dir);
    expect((await third.search('kb', [1, 0], { limit: 10, filter: {} })).map((h) => h.id)).toEqual([id(1), id(2)]);
    await third.close();
    const lines = (await readFile(join(dir, 'vectors.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { op: string }).op)).toEqual(['collection', 'upsert', 'upsert']);
  });

  it('refuses a log damaged before its last line', async () => {
    await writeFile(
      join(dir, 'vectors.jsonl'),
      '{"op":"collection","name":"kb","dimensions":2}\nnot json\n{"op":"collection","name":"x","dimensions":2}\n',
    );
    await expect(EmbeddedVectorIndex.open(dir)).rejects.toThrow(/corrupt at line 2/);
  });

  it('compacts a log that has grown far beyond the live points, keeping them', async () => {
    const first = await EmbeddedVectorIndex.open(dir);
    await first.ensureCollection('kb', 2);
    const batch = Array.from({ length: 2_000 }, (_, i) => ({
      id: id(i),
      vector: [1, i],
      payload: { projectId: 'p1', documentId: `d${i}` },
    }));
    for (let round = 0; round < 7; round++) await first.upsert('kb', batch);
    await first.close();
    const before = (await readFile(join(dir, 'vectors.jsonl'), 'utf8')).length;

    const second = await EmbeddedVectorIndex.open(dir);
    const after = (await readFile(join(dir, 'vectors.jsonl'), 'utf8')).length;
    expect(after).toBeLessThan(before / 3);
    expect(await second.search('kb', [1, 1], { limit: 5, filter: { documentId: 'd1' } })).toMatchObject([
      { id: id(1), payload: { projectId: 'p1', documentId: 'd1' } },
    ]);
    expect(await second.search('kb', [1, 0], { limit: 3000, filter: { projectId: 'p1' } })).toHaveLength(2_000);
    await second.close();
  });
});

describe('EmbeddedVectorIndex points grouped by projectId', () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const ids = async (vectors: EmbeddedVectorIndex, filter: Record<string, string>) =>
    (await vectors.search('kb', [1, 0], { limit: 10, filter })).map((h) => h.id);

  it('moves a point upserted again under another project, also after reopening', async () => {
    const dir = await tempDir();
    const first = await EmbeddedVectorIndex.open(dir);
    await first.ensureCollection('kb', 2);
    await first.upsert('kb', [{ id: id(1), vector: [1, 0], payload: { projectId: 'p1' } }]);
    await first.upsert('kb', [{ id: id(1), vector: [1, 0], payload: { projectId: 'p2' } }]);
    expect(await ids(first, { projectId: 'p1' })).toEqual([]);
    expect(await ids(first, { projectId: 'p2' })).toEqual([id(1)]);
    await first.close();

    const second = await EmbeddedVectorIndex.open(dir);
    expect(await ids(second, { projectId: 'p1' })).toEqual([]);
    expect(await ids(second, { projectId: 'p2' })).toEqual([id(1)]);
    expect(await ids(second, {})).toEqual([id(1)]);
    await second.close();
  });

  it('matches a point whose projectId is an array or missing like Qdrant does', async () => {
    const vectors = await EmbeddedVectorIndex.open(await tempDir());
    await vectors.ensureCollection('kb', 2);
    await vectors.upsert('kb', [
      { id: id(1), vector: [1, 0], payload: { projectId: ['p1', 'p2'] } },
      { id: id(2), vector: [1, 0.1], payload: { documentId: 'd2' } },
      { id: id(3), vector: [1, 0.2], payload: { projectId: 'p2' } },
    ]);
    expect(await ids(vectors, { projectId: 'p1' })).toEqual([id(1)]);
    expect(await ids(vectors, { projectId: 'p2' })).toEqual([id(1), id(3)]);
    expect(await ids(vectors, { documentId: 'd2' })).toEqual([id(2)]);
    await vectors.deleteWhere('kb', { projectId: 'p2' });
    expect(await ids(vectors, {})).toEqual([id(2)]);
    await vectors.close();
  });
});
