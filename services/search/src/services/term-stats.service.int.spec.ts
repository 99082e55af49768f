import { randomUUID } from 'node:crypto';
import { ADMIN_TOKEN_ACTOR, SearchMessages as M } from '@palaver/contracts';
import type { Collection } from '@palaver/platform';
import { beforeEach, describe, expect, it } from 'vitest';
import { documentChunks } from '../domain/knowledge-text';
import { contributionOf, statsShardOf, sumCounts, type TermCounts } from '../domain/term-statistics';
import { DocumentRepository } from '../repositories/document.repository';
import { type StoredTermStats, TermStatsRepository, termStatsId } from '../repositories/term-stats.repository';
import { FIXTURE_PAGES } from '../testing/knowledge.fixture';
import { searchPerTest } from '../testing/search-per-test';
import { TERM_STATS_SHARDS, TermStatsService } from './term-stats.service';

const t = searchPerTest();
let stats: Collection<StoredTermStats>;
let documents: DocumentRepository;
const projectId = randomUUID();
const otherProjectId = randomUUID();

beforeEach(() => {
  stats = t.h.infra.documents.collection<StoredTermStats>('search_term_stats');
  documents = new DocumentRepository(t.h.infra.documents);
});

const weighting = () => t.h.infra.embedder.termWeighting!;

/** Another instance of the statistics over the same store, as a second search process would be. */
const secondInstance = () =>
  new TermStatsService(t.h.infra.embedder, new TermStatsRepository(t.h.infra.documents), documents, t.h.infra.clock);

const withoutZeros = (df: Record<string, number>) => Object.fromEntries(Object.entries(df).filter(([, n]) => n !== 0));

/** The counts and versions a project should have, recounted from its documents as they are now. */
const expected = async (project: string): Promise<{ counts: TermCounts; live: Record<string, string> }> => {
  const docs = await documents.pageByIdAfter(project, null, 10_000);
  const counts = sumCounts(
    docs.map(({ record }) => contributionOf(documentChunks(record.title, record.content).map(({ text }) => weighting().termBuckets(text)))),
  );
  return { counts, live: Object.fromEntries(docs.map(({ record, version }) => [record.id, version])) };
};

const shardsOf = (project: string) => stats.find({ projectId: project }, { sort: { shard: 1 } });
const shardIdOf = (project: string, documentId: string) => termStatsId(project, statsShardOf(documentId, TERM_STATS_SHARDS));

/** Checks every shard against a recount of the project's documents; returns the shards and their sums. */
const expectCountsMatchDocuments = async (project: string) => {
  const shards = await shardsOf(project);
  const { counts, live } = await expected(project);
  expect(shards.map((s) => s.shard)).toEqual(Array.from({ length: TERM_STATS_SHARDS }, (_, i) => i));
  for (const shard of shards) {
    expect(shard.scheme).toBe(weighting().scheme);
    for (const documentId of Object.keys(shard.live)) expect(statsShardOf(documentId, TERM_STATS_SHARDS)).toBe(shard.shard);
  }
  const total = sumCounts(shards);
  expect(total.chunks).toBe(counts.chunks);
  expect(withoutZeros(total.df)).toEqual(counts.df);
  expect(Object.assign({}, ...shards.map((s) => s.live))).toEqual(live);
  return { shards, chunks: total.chunks, df: total.df };
};

const create = (project: string, page: keyof typeof FIXTURE_PAGES) =>
  t.h.send(M.createDocument, { projectId: project, body: FIXTURE_PAGES[page] });

describe('term statistics: bookkeeping', () => {
  it('counts every chunk of each document once through creates, updates and deletes', async () => {
    const shipping = await create(projectId, 'shipping');
    const returns = await create(projectId, 'returns');
    const warranty = await create(projectId, 'warranty');
    const first = await expectCountsMatchDocuments(projectId);
    expect(new Set(first.shards.filter((x) => x.chunks > 0).map((x) => x.shard)).size).toBeGreaterThan(1);
    expect(first.chunks).toBe(shipping.chunkCount + returns.chunkCount + warranty.chunkCount);
    expect(first.chunks).toBeGreaterThan(3);

    await t.h.send(M.updateDocument, {
      projectId,
      documentId: shipping.id,
      patch: { content: '# Shipping\nWe deliver by drone to the rooftop garden.' },
    });
    const updated = await expectCountsMatchDocuments(projectId);
    expect(updated.chunks).toBe(1 + returns.chunkCount + warranty.chunkCount);
    const [drone] = weighting().termBuckets('drone');
    expect(updated.df[drone!]).toBe(1);

    await t.h.send(M.updateDocument, { projectId, documentId: returns.id, patch: { title: 'Drone returns' } });
    expect((await expectCountsMatchDocuments(projectId)).df[drone!]).toBe(1 + returns.chunkCount);

    await t.h.send(M.deleteDocument, { projectId, documentId: shipping.id });
    expect((await expectCountsMatchDocuments(projectId)).chunks).toBe(returns.chunkCount + warranty.chunkCount);

    await t.h.send(M.deleteDocument, { projectId, documentId: returns.id });
    await t.h.send(M.deleteDocument, { projectId, documentId: warranty.id });
    const empty = await expectCountsMatchDocuments(projectId);
    expect(empty.chunks).toBe(0);
    expect(withoutZeros(empty.df)).toEqual({});
  });

  it("rewrites only the changed document's shard", async () => {
    const docs = await Promise.all((['shipping', 'returns', 'warranty', 'hours', 'privacy'] as const).map((p) => create(projectId, p)));
    const before = await shardsOf(projectId);
    await t.h.send(M.updateDocument, { projectId, documentId: docs[2]!.id, patch: { title: 'Guarantee' } });
    const after = await shardsOf(projectId);
    const changed = after.filter((shard, i) => shard.generation !== before[i]!.generation).map((shard) => shard._id);
    expect(changed).toEqual([shardIdOf(projectId, docs[2]!.id)]);
    await expectCountsMatchDocuments(projectId);
  });

  it('leaves the counts alone when a write fails', async () => {
    const doc = await create(projectId, 'warranty');
    const before = await stats.findOne({ _id: shardIdOf(projectId, doc.id) });
    await expect(t.h.send(M.updateDocument, { projectId, documentId: randomUUID(), patch: { title: 'x' } })).rejects.toThrow();
    await expect(t.h.send(M.deleteDocument, { projectId, documentId: randomUUID() })).rejects.toThrow();
    await t.h.send(M.deleteDocument, { projectId, documentId: doc.id });
    await expect(t.h.send(M.deleteDocument, { projectId, documentId: doc.id })).rejects.toThrow();
    const after = await expectCountsMatchDocuments(projectId);
    expect(after.chunks).toBe(0);
    expect((await stats.findOne({ _id: shardIdOf(projectId, doc.id) }))!.generation).toBe(before!.generation + 1);
  });

  it('keeps each project its own counts', async () => {
    await create(projectId, 'warranty');
    await create(projectId, 'hours');
    const mine = await shardsOf(projectId);
    await expectCountsMatchDocuments(projectId);
    const theirs = await create(otherProjectId, 'product');
    await create(otherProjectId, 'warranty');
    await expectCountsMatchDocuments(otherProjectId);
    await t.h.send(M.deleteDocument, { projectId: otherProjectId, documentId: theirs.id });
    await expectCountsMatchDocuments(otherProjectId);
    expect(await shardsOf(projectId)).toEqual(mine);
  });

  it('applies a change once however often it is replayed, from this or another instance', async () => {
    const doc = await create(projectId, 'shipping');
    await create(projectId, 'returns');
    const created = (await documents.find(projectId, doc.id))!;
    await t.h.send(M.updateDocument, { projectId, documentId: doc.id, patch: { content: '# Shipping\nFree delivery.' } });
    const updated = (await documents.find(projectId, doc.id))!;
    await expectCountsMatchDocuments(projectId);
    const counted = await shardsOf(projectId);

    const other = secondInstance();
    await other.documentChanged({ projectId, documentId: doc.id, before: null, after: created });
    await other.documentChanged({ projectId, documentId: doc.id, before: created, after: updated });
    await other.documentChanged({ projectId, documentId: doc.id, before: created, after: updated });
    expect(await shardsOf(projectId)).toEqual(counted);

    // A delete of a version that is no longer live must not remove the live one.
    await other.documentChanged({ projectId, documentId: doc.id, before: created, after: null });
    expect(await shardsOf(projectId)).toEqual(counted);
  });

  it('ends equal to a recount after concurrent updates and deletes', async () => {
    const docs = await Promise.all((['shipping', 'returns', 'warranty', 'hours'] as const).map((p) => create(projectId, p)));
    const contents = ['# A\nalpha parcel', '# B\nbeta parcel parcel', '# C\ngamma refund', '# D\ndelta'];
    const outcomes = await Promise.allSettled([
      ...contents.map((content) => t.h.send(M.updateDocument, { projectId, documentId: docs[0]!.id, patch: { content } })),
      ...contents.map((content) => t.h.send(M.updateDocument, { projectId, documentId: docs[1]!.id, patch: { content } })),
      t.h.send(M.deleteDocument, { projectId, documentId: docs[1]!.id }),
      t.h.send(M.deleteDocument, { projectId, documentId: docs[2]!.id }),
      create(projectId, 'privacy'),
    ]);
    expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
    expect(outcomes.some((o) => o.status === 'rejected')).toBe(true);
    await expectCountsMatchDocuments(projectId);
  });

  it('recounts counts that are missing, of another scheme or missed a change', async () => {
    const doc = await create(projectId, 'shipping');
    await create(projectId, 'warranty');
    await stats.deleteMany({ projectId });
    await t.h.send(M.search, { projectId, q: 'delivery', size: 5 });
    await expectCountsMatchDocuments(projectId);

    await stats.updateOne({ _id: termStatsId(projectId, 5) }, { $set: { scheme: 'another-analyzer' } });
    t.clock.advance(60_000);
    await t.h.send(M.search, { projectId, q: 'delivery', size: 5 });
    await expectCountsMatchDocuments(projectId);

    // Counts that missed the document's last change (as after a crash) are put right by its next one.
    await stats.updateOne({ _id: shardIdOf(projectId, doc.id) }, { $set: { [`live.${doc.id}`]: randomUUID() }, $inc: { chunks: 7 } });
    await t.h.send(M.updateDocument, { projectId, documentId: doc.id, patch: { title: 'Delivery' } });
    await expectCountsMatchDocuments(projectId);
  });

  it('recounts once for the queries that find the counts missing together', async () => {
    await create(projectId, 'shipping');
    await create(projectId, 'returns');
    await stats.deleteMany({ projectId });
    t.clock.advance(60_000);
    const answers = await Promise.all(
      ['delivery', 'refund', 'shipping fee', 'parcel'].map((q) => t.h.send(M.search, { projectId, q, size: 5 })),
    );
    for (const { results } of answers) expect(results.length).toBeGreaterThan(0);
    const { shards } = await expectCountsMatchDocuments(projectId);
    expect(shards.map((shard) => shard.generation)).toEqual(new Array(TERM_STATS_SHARDS).fill(1));
  });

  it("reuses a read of the counts for a few seconds, and sees another instance's writes after that", async () => {
    await create(projectId, 'shipping');
    await t.h.send(M.search, { projectId, q: 'delivery', size: 5 });
    await stats.updateOne({ _id: termStatsId(projectId, 0) }, { $set: { scheme: 'another-analyzer' } });
    t.clock.advance(1_000);
    await t.h.send(M.search, { projectId, q: 'delivery', size: 5 });
    expect((await stats.findOne({ _id: termStatsId(projectId, 0) }))!.scheme).toBe('another-analyzer');
    t.clock.advance(5_000);
    await t.h.send(M.search, { projectId, q: 'delivery', size: 5 });
    await expectCountsMatchDocuments(projectId);
  });

  it('writes no counts for a project without documents, even when it is searched', async () => {
    await t.h.send(M.search, { projectId, q: 'anything', size: 5 });
    await t.h.send(M.retrieve, { projectId, query: 'anything', qnaLimit: 2, chunkLimit: 2 });
    await t.h.send(M.createQna, { actor: ADMIN_TOKEN_ACTOR, projectId, body: { question: 'Do you ship abroad?', answer: 'Yes.' } });
    expect(await stats.count({ projectId })).toBe(0);
  });
});

describe('term statistics: when the store fails', () => {
  const failing = (dropped: string[]) => {
    const repo = new TermStatsRepository(t.h.infra.documents);
    const fail = async () => {
      throw new Error('store unavailable');
    };
    return Object.assign(repo, {
      findAll: fail,
      find: fail,
      move: fail,
      replace: fail,
      drop: async (project: string) => {
        dropped.push(project);
      },
    });
  };

  it('ranks without weights, and a write still succeeds and drops the counts to be recounted', async () => {
    const dropped: string[] = [];
    const service = new TermStatsService(t.h.infra.embedder, failing(dropped), documents, t.h.infra.clock);
    expect(await service.chunkQueryVector(projectId, 'delivery')).toBeNull();
    const doc = await create(projectId, 'shipping');
    const current = await documents.find(projectId, doc.id);
    await expect(service.documentChanged({ projectId, documentId: doc.id, before: null, after: current })).resolves.toBeUndefined();
    expect(dropped).toEqual([projectId]);
  });
});

describe('term statistics: repository guards', () => {
  const shard = (chunks: number): Omit<StoredTermStats, '_id' | 'generation'> => ({
    projectId,
    shard: 3,
    scheme: 's1',
    chunks,
    df: { 1: chunks },
    live: { d1: 'v1' },
  });

  it('moves a document only from the version its shard holds, under its scheme', async () => {
    const repo = new TermStatsRepository(t.h.infra.documents);
    const move = (scheme: string, doc: string, from: string | null, to: string | null, delta: TermCounts) =>
      repo.move(projectId, 3, scheme, doc, from, to, delta);
    expect(await move('s1', 'd1', null, 'v1', { chunks: 1, df: { 1: 1 } })).toBe(false);
    expect(await repo.replace(shard(1), null)).toBe(true);
    expect(await move('s1', 'd1', null, 'v1', { chunks: 1, df: { 1: 1 } })).toBe(false);
    expect(await move('s2', 'd1', 'v1', 'v2', { chunks: 1, df: { 1: 1 } })).toBe(false);
    expect(await repo.move(projectId, 4, 's1', 'd1', 'v1', 'v2', { chunks: 1, df: { 1: 1 } })).toBe(false);
    expect(await move('s1', 'd1', 'v1', 'v2', { chunks: 2, df: { 1: 2, 4: 1 } })).toBe(true);
    expect(await move('s1', 'd1', 'v1', 'v2', { chunks: 2, df: { 1: 2, 4: 1 } })).toBe(false);
    expect(await move('s1', 'd2', null, 'w1', { chunks: 1, df: { 4: 1 } })).toBe(true);
    expect(await move('s1', 'd1', 'v2', null, { chunks: -3, df: { 1: -3, 4: -1 } })).toBe(true);
    expect(await repo.find(projectId, 3)).toMatchObject({ chunks: 1, df: { 1: 0, 4: 1 }, live: { d2: 'w1' }, generation: 4 });
    expect(await repo.findAll(otherProjectId)).toEqual([]);
  });

  it('replaces a shard only at the generation that was read', async () => {
    const repo = new TermStatsRepository(t.h.infra.documents);
    expect(await repo.replace(shard(1), null)).toBe(true);
    expect(await repo.replace(shard(2), null)).toBe(false);
    expect(await repo.replace(shard(3), 7)).toBe(false);
    expect(await repo.replace(shard(4), 1)).toBe(true);
    expect(await repo.findAll(projectId)).toMatchObject([{ _id: termStatsId(projectId, 3), chunks: 4, generation: 2 }]);
  });
});
