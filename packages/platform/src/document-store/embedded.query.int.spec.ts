import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query } from 'mingo';
import { update as applyModifier } from 'mingo/updater';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter, Sort } from './document-store.port';
import { EmbeddedDocumentStore } from './embedded.document-store';

/** A small deterministic generator, so a failure names a reproducible case. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const VALUES: unknown[] = ['a', 'b', 'B', '', 1, 2, 10, 1.5, true, false, null, ['a', 'b'], [1, 2], { a: 1 }];

/**
 * The store answers plain equality filters and sorts on strings or numbers without mingo; this
 * checks those answers (and everything mingo still answers) against mingo's on mixed documents.
 */
describe('EmbeddedDocumentStore queries agree with mingo', () => {
  const next = random(7);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const docs = Array.from({ length: 300 }, (_, i) => {
    const doc: Record<string, unknown> = { _id: `d${String(i).padStart(3, '0')}` };
    for (const field of ['x', 'y', 'z']) if (next() < 0.9) doc[field] = pick(VALUES);
    doc.s = pick(['2026-01-02', '2026-01-01', '2026-01-03']);
    doc.n = pick([3, 1, 2]);
    return doc;
  });
  let dir: string;
  let store: EmbeddedDocumentStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-query-'));
    store = await EmbeddedDocumentStore.open(dir);
    const items = store.collection('items', [{ keys: { x: 1 } }]);
    for (const doc of docs) await items.insertOne(doc as { _id: string });
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const scalars = VALUES.filter((v) => ['string', 'number', 'boolean'].includes(typeof v));
  const filters: Filter[] = [
    {},
    ...scalars.map((v) => ({ x: v })),
    ...scalars.map((v) => ({ y: { $eq: v }, s: '2026-01-01' })),
    { x: 'a', y: 'b' },
    { _id: { $in: ['d001', 'd017', 'd250', 'nope'] } },
    { _id: { $in: ['d001', 'd017'] }, x: 'a' },
    { x: null },
    { x: { $in: ['a', 1] } },
  ];
  const sorts: Sort[] = [
    { s: -1, _id: -1 },
    { n: 1, _id: 1 },
    { x: 1, _id: 1 },
    { s: 1, n: -1, _id: 1 },
  ];

  it.each(filters.map((filter) => [JSON.stringify(filter), filter]))('find and count %s', async (_, filter) => {
    const items = store.collection('items');
    const expected = new Query(filter).find(docs).all() as Array<{ _id: string }>;
    expect((await items.find(filter)).map((d) => d._id)).toEqual(expected.map((d) => d._id));
    expect(await items.count(filter)).toBe(expected.length);
    for (const sort of sorts) {
      const sorted = new Query(filter).find(docs).sort(sort).skip(3).limit(20).all() as Array<{ _id: string }>;
      expect(
        (await items.find(filter, { sort, skip: 3, limit: 20 })).map((d) => d._id),
        JSON.stringify(sort),
      ).toEqual(sorted.map((d) => d._id));
    }
  });
});

describe('EmbeddedDocumentStore updates agree with mingo', () => {
  let dir: string;
  let store: EmbeddedDocumentStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'palaver-update-'));
    store = await EmbeddedDocumentStore.open(dir);
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = { _id: 'doc', n: 1, s: 'a', b: true, z: null, nested: { k: 1 }, list: [1, 2] };
  // Scalar $set / $inc (answered directly) and everything else (answered by mingo).
  const updates: Record<string, unknown>[] = [
    { $inc: { n: 1 } },
    { $inc: { n: -2.5, fresh: 3 } },
    { $inc: { n: 0 } },
    { $set: { s: 'b', b: false, z: 'now' } },
    { $set: { s: 'a' } },
    { $set: { added: null } },
    { $set: { s: 'c' }, $inc: { n: 10 } },
    { $inc: { s: 1 } },
    { $set: { nested: { k: 2 } } },
    { $set: { 'nested.k': 3 } },
    { $push: { list: 3 } },
    { $unset: { s: '' } },
  ];

  it.each(updates.map((update) => [JSON.stringify(update), update]))('%s', async (_, update) => {
    const items = store.collection(`u${Math.random().toString(36).slice(2)}`);
    await items.insertOne(structuredClone(start));
    const expected = structuredClone(start) as Record<string, unknown>;
    let mingoError: unknown = null;
    try {
      applyModifier(expected, update as never, undefined, undefined, { cloneMode: 'deep' });
    } catch (error) {
      mingoError = error;
    }
    const result = await items.updateOne({ _id: 'doc' }, update).catch((error: unknown) => error);
    if (mingoError) expect(result).toBeInstanceOf(Error);
    else expect(await items.findOne({ _id: 'doc' })).toEqual(expected);
  });
});
