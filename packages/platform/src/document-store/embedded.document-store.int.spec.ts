import { appendFile, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeUntilKilled } from '../testing/crash';
import { describeDocumentStoreContract } from '../testing/document-store.contract';
import { makeTempDir, removeDir, tempDirPerTest } from '../testing/temp-dir';
import { DuplicateKeyError } from './document-store.port';
import { EmbeddedDocumentStore } from './embedded.document-store';

describeDocumentStoreContract('embedded (mingo + JSONL)', async () => {
  const dir = await makeTempDir('docs');
  return {
    open: () => EmbeddedDocumentStore.open(dir),
    cleanup: () => removeDir(dir),
  };
});

describe('EmbeddedDocumentStore on disk', () => {
  const dir = tempDirPerTest('docs');

  it('ignores and truncates a torn last line, and keeps working', async () => {
    const store = await EmbeddedDocumentStore.open(dir.path);
    const col = store.collection<{ _id: string; n: number }>('items');
    await col.insertOne({ _id: 'a', n: 1 });
    await col.insertOne({ _id: 'b', n: 2 });
    await store.close();
    const file = join(dir.path, 'items.jsonl');
    const intact = await readFile(file, 'utf8');
    await appendFile(file, '{"op":"put","doc":{"_id":"c","n"');

    const reopened = await EmbeddedDocumentStore.open(dir.path);
    const items = reopened.collection<{ _id: string; n: number }>('items');
    expect(await items.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 2 },
    ]);
    expect(await readFile(file, 'utf8')).toBe(intact);
    await items.insertOne({ _id: 'c', n: 3 });
    await reopened.close();

    const third = await EmbeddedDocumentStore.open(dir.path);
    expect(await third.collection('items').count({})).toBe(3);
    await third.close();
  });

  it('refuses to open a log corrupted before its last line', async () => {
    const store = await EmbeddedDocumentStore.open(dir.path);
    await store.collection('items').insertOne({ _id: 'a' });
    await store.close();
    const file = join(dir.path, 'items.jsonl');
    const content = await readFile(file, 'utf8');
    await rm(file);
    await appendFile(file, `{"op":"put","doc":{"_id"\n${content}`);
    await expect(EmbeddedDocumentStore.open(dir.path)).rejects.toThrow(/corrupt/);
  });

  it('compacts a log much larger than its live documents when opening it', async () => {
    const store = await EmbeddedDocumentStore.open(dir.path);
    const col = store.collection<{ _id: string; n: number }>('churn');
    await col.insertOne({ _id: 'kept', n: 0 });
    for (let i = 1; i <= 300; i++) await col.updateOne({ _id: 'kept' }, { $set: { n: i } });
    for (let i = 0; i < 50; i++) await col.insertOne({ _id: `gone${i}`, n: i });
    await col.deleteMany({ _id: { $regex: '^gone' } });
    await store.close();
    const file = join(dir.path, 'churn.jsonl');
    const before = (await stat(file)).size;

    const reopened = await EmbeddedDocumentStore.open(dir.path);
    expect((await stat(file)).size).toBeLessThan(before / 10);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(await reopened.collection('churn').find({})).toEqual([{ _id: 'kept', n: 300 }]);
    await reopened.collection<{ _id: string; n: number }>('churn').insertOne({ _id: 'new', n: 1 });
    await reopened.close();
    const third = await EmbeddedDocumentStore.open(dir.path);
    expect(await third.collection('churn').count({})).toBe(2);
    await third.close();
    expect((await readdir(dir.path)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('compact() leaves no byte of a deleted or overwritten document in the files, and keeps writing', async () => {
    const store = await EmbeddedDocumentStore.open(dir.path);
    const plain = store.collection<{ _id: string; text: string }>('plain');
    const derived = store.collection<{ _id: string; text: string }>('derived', [], { durability: 'derived' });
    for (const col of [plain, derived]) {
      await col.insertOne({ _id: 'gone', text: 'MARKER-deleted' });
      await col.insertOne({ _id: 'kept', text: 'MARKER-old-version' });
      await col.updateOne({ _id: 'kept' }, { $set: { text: 'current' } });
      await col.deleteOne({ _id: 'gone' });
    }
    await store.sync();
    const files = async () => (await Promise.all((await readdir(dir.path)).map((f) => readFile(join(dir.path, f), 'utf8')))).join('\n');
    expect(await files()).toContain('MARKER');
    // Only the collections named.
    await store.compact(['plain']);
    const afterPlain = await files();
    expect(afterPlain.split('\n').filter((line) => line.includes('MARKER'))).toHaveLength(2);
    await store.compact();
    expect(await files()).not.toContain('MARKER');
    await derived.insertOne({ _id: 'after', text: 'later' });
    await plain.insertOne({ _id: 'after', text: 'later' });
    await store.close();
    const reopened = await EmbeddedDocumentStore.open(dir.path);
    for (const name of ['plain', 'derived'])
      expect(await reopened.collection(name).find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'after', text: 'later' },
        { _id: 'kept', text: 'current' },
      ]);
    await reopened.close();
  });

  it('rejects a unique index that the existing documents already break', async () => {
    const store = await EmbeddedDocumentStore.open(dir.path);
    const col = store.collection<{ _id: string; email: string }>('users');
    await col.insertOne({ _id: 'a', email: 'x' });
    await col.insertOne({ _id: 'b', email: 'x' });
    expect(() => store.collection('users', [{ keys: { email: 1 }, unique: true }])).toThrow(DuplicateKeyError);
    await store.close();
  });

  it('answers equality queries on indexed fields as a full scan would, in natural order, across updates and reopening', async () => {
    type Item = { _id: string; owner: unknown; n: number };
    const indexes = [{ keys: { owner: 1 as const, n: 1 as const } }];
    const store = await EmbeddedDocumentStore.open(dir.path);
    const items = store.collection<Item>('items', indexes);
    await items.insertOne({ _id: 'a', owner: 'x', n: 1 });
    await items.insertOne({ _id: 'b', owner: 'y', n: 2 });
    await items.insertOne({ _id: 'c', owner: ['x', 'z'], n: 3 }); // matches 'x' element-wise
    await items.insertOne({ _id: 'd', owner: 'x', n: 4 });
    await items.updateOne({ _id: 'b' }, { $set: { owner: 'x' } }); // moves between index buckets, keeps its place
    await items.deleteOne({ _id: 'a' });
    await items.insertOne({ _id: 'a', owner: 'x', n: 5 }); // re-inserted: now last
    const ids = async (filter: Record<string, unknown>) => (await items.find(filter)).map((item) => item._id);

    expect(await ids({ owner: 'x' })).toEqual(['b', 'c', 'd', 'a']);
    expect(await ids({ owner: { $eq: 'x' }, n: { $gt: 2 } })).toEqual(['c', 'd', 'a']);
    expect(await ids({ owner: 'x', n: 2 })).toEqual(['b']);
    expect(await ids({ owner: 'y' })).toEqual([]);
    expect(await ids({ _id: { $in: ['d', 'b', 'nope'] } })).toEqual(['b', 'd']);
    expect(await ids({ _id: 'b', owner: 'x' })).toEqual(['b']);
    expect(await ids({ _id: 'b', owner: 'y' })).toEqual([]);
    expect(await ids({ _id: { $in: ['a', 'b', 'c', 'd'] }, owner: 'y' })).toEqual([]);
    expect(await items.count({ owner: 'x' })).toBe(4);
    expect((await items.findOne({ owner: 'x' }))?._id).toBe('b');
    expect(await items.deleteMany({ owner: 'x', n: { $lt: 4 } })).toBe(2);
    expect(await ids({ owner: 'x' })).toEqual(['d', 'a']);
    await store.close();

    const reopened = await EmbeddedDocumentStore.open(dir.path);
    const again = reopened.collection<Item>('items', indexes);
    expect((await again.find({ owner: 'x' })).map((item) => item._id)).toEqual(['d', 'a']);
    await reopened.close();
  });

  it('keeps the equality indexes right across updates that keep an indexed value and that change its kind', async () => {
    type Item = { _id: string; owner: unknown; n: number };
    const store = await EmbeddedDocumentStore.open(dir.path);
    const items = store.collection<Item>('moves', [{ keys: { owner: 1 as const, n: 1 as const } }]);
    await items.insertMany([
      { _id: 'a', owner: 'x', n: 1 },
      { _id: 'b', owner: ['x', 'z'], n: 2 },
      { _id: 'c', owner: 'y', n: 3 },
      { _id: 'd', owner: 'x', n: 4 },
    ]);
    await items.updateOne({ _id: 'a' }, { $set: { n: 10 } }); // owner kept, n moved
    await items.updateOne({ _id: 'b' }, { $set: { owner: ['z'] } }); // an array still, no longer holding 'x'
    await items.updateOne({ _id: 'c' }, { $set: { owner: ['x'] } }); // a scalar became an array
    await items.replaceOne({ _id: 'd' }, { _id: 'd', owner: 'y', n: 4 }); // a scalar changed, by a replacement
    const ids = async (filter: Record<string, unknown>) => (await items.find(filter)).map((item) => item._id);

    expect(await ids({ owner: 'x' })).toEqual(['a', 'c']);
    expect(await ids({ owner: 'y' })).toEqual(['d']);
    expect(await ids({ owner: 'z' })).toEqual(['b']);
    expect(await ids({ n: 10 })).toEqual(['a']);
    expect(await ids({ n: 1 })).toEqual([]);
    expect(await ids({ owner: 'x', n: 10 })).toEqual(['a']);
    await store.close();
  });

  it('applies writes in call order, those made while the log opens and those made after', async () => {
    type Item = { _id: string; n: number };
    const store = await EmbeddedDocumentStore.open(dir.path);
    const items = store.collection<Item>('order');
    // The first write opens the collection's log, so the second waits in the queue behind it.
    const writes = [items.insertOne({ _id: 'a', n: 1 }), items.updateOne({ _id: 'a' }, { $set: { n: 2 } })];
    await Promise.all(writes);
    // The log is open and nothing is queued: these apply as they are called.
    const more = [
      items.updateOne({ _id: 'a' }, { $inc: { n: 1 } }),
      items.updateOne({ _id: 'a' }, { $set: { n: 10 } }),
      items.updateOne({ _id: 'a' }, { $inc: { n: 5 } }),
    ];
    expect((await Promise.all(more)).map((r) => r.matched)).toEqual([1, 1, 1]);
    expect(await items.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 15 });
    await expect(items.insertOne({ _id: 'a', n: 0 })).rejects.toThrow(DuplicateKeyError);
    await store.close();
    await expect(items.updateOne({ _id: 'a' }, { $set: { n: 0 } })).rejects.toThrow();

    const reopened = await EmbeddedDocumentStore.open(dir.path);
    expect(await reopened.collection<Item>('order').findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 15 });
    await reopened.close();
  });

  it('rejects collection names that are not safe file names', async () => {
    const store = await EmbeddedDocumentStore.open(dir.path);
    expect(() => store.collection('../escape')).toThrow(/invalid collection name/);
    expect(() => store.collection('')).toThrow(/invalid collection name/);
    await store.close();
  });

  // A derived collection's writes are answered before they are written: durable once a sync()
  // resolved after them (its owner redoes the rest), so that is what a kill must not take back.
  it.each(['documents', 'derived-documents'] as const)(
    'keeps every write made durable when the process is killed with SIGKILL mid-stream (%s)',
    async (kind) => {
      const acked = await writeUntilKilled(kind, dir.path, 160);
      const synced = Math.max(0, ...acked.filter((l) => l.startsWith('synced ')).map((l) => Number(l.split(' ')[1])));
      // Acknowledged means durable for `documents`; for `derived`, the rounds before the last sync.
      const durable = (n: number) => kind === 'documents' || n < synced * 3;
      const inserted = acked
        .filter((line) => line.startsWith('insert '))
        .map((line) => line.slice('insert '.length))
        .filter((id) => durable(Number(id.slice(1))));
      const counters = acked.filter((l) => l.startsWith('counter ')).map((l) => Number(l.split(' ')[1]));
      const counter = kind === 'documents' ? Math.max(...counters) : synced;
      expect(inserted.length).toBeGreaterThanOrEqual(kind === 'documents' ? 80 : 30);

      const store = await EmbeddedDocumentStore.open(dir.path);
      const col = store.collection<{ _id: string; i: number; hits?: number }>('crash', [{ keys: { i: 1 }, unique: true }]);
      const present = new Set((await col.find({ _id: { $in: inserted } })).map((d) => d._id));
      expect(inserted.filter((id) => !present.has(id))).toEqual([]);
      expect((await col.findOne({ _id: 'counter' }))!.hits).toBeGreaterThanOrEqual(counter);
      // Still a working store: the unique index holds and new writes land.
      await expect(col.insertOne({ _id: 'dup', i: 0 })).rejects.toBeInstanceOf(DuplicateKeyError);
      await col.insertOne({ _id: 'after-crash', i: 1_000_000 });
      await store.close();
      const again = await EmbeddedDocumentStore.open(dir.path);
      expect(await again.collection('crash').findOne({ _id: 'after-crash' })).toMatchObject({ i: 1_000_000 });
      await again.close();
    },
  );
});
