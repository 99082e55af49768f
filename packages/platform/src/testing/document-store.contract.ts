import { describe, expect, it } from 'vitest';
import type { Collection, DocumentStore, WithId } from '../document-store/document-store.port';
import { DuplicateKeyError } from '../document-store/document-store.port';
import { type StoreFixture, storePerTest } from './store-per-test';

export type DocumentStoreFixture = StoreFixture<DocumentStore>;

type Person = WithId & {
  name: string;
  age?: number;
  city?: string;
  tags?: string[];
  address?: { city: string; zip: string };
  visits?: number;
  email?: string;
  projectId?: string;
  createdAt?: string;
};

const people: Person[] = [
  {
    _id: 'p1',
    name: 'Ada',
    age: 36,
    tags: ['math', 'code'],
    address: { city: 'London', zip: 'N1' },
    createdAt: '2024-01-03T00:00:00.000Z',
  },
  { _id: 'p2', name: 'Alan', age: 41, tags: ['code'], address: { city: 'Manchester', zip: 'M1' }, createdAt: '2024-01-01T00:00:00.000Z' },
  {
    _id: 'p3',
    name: 'Grace',
    age: 85,
    tags: ['navy', 'code'],
    address: { city: 'New York', zip: '10001' },
    createdAt: '2024-01-02T00:00:00.000Z',
  },
  { _id: 'p4', name: 'Edsger', age: 72, tags: [], address: { city: 'Austin', zip: '73301' }, createdAt: '2024-01-05T00:00:00.000Z' },
  { _id: 'p5', name: 'barbara', age: 41, address: { city: 'Boston', zip: '02101' }, createdAt: '2024-01-04T00:00:00.000Z' },
];

const ids = (docs: WithId[]) => docs.map((d) => d._id);

/**
 * The behaviour every DocumentStore adapter shares: the subset of MongoDB's query language that
 * the repositories use. `factory` gives a fixture over a fresh, empty store.
 */
export function describeDocumentStoreContract(adapterName: string, factory: () => Promise<DocumentStoreFixture>): void {
  describe(`DocumentStore contract: ${adapterName}`, () => {
    let store: DocumentStore;
    const { reopen, closedByTest } = storePerTest(factory, (opened) => {
      store = opened;
    });

    const seeded = async (): Promise<Collection<Person>> => {
      const col = store.collection<Person>('people');
      for (const p of people) await col.insertOne(p);
      return col;
    };

    describe('insert and read', () => {
      it('finds an inserted document by _id and answers null for a missing one', async () => {
        const col = await seeded();
        expect(await col.findOne({ _id: 'p3' })).toEqual(people[2]);
        expect(await col.findOne({ _id: 'nope' })).toBeNull();
      });

      it('rejects a second document with the same _id', async () => {
        const col = await seeded();
        await expect(col.insertOne({ _id: 'p1', name: 'Other' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await col.findOne({ _id: 'p1' }))?.name).toBe('Ada');
        expect(await col.count({})).toBe(5);
      });

      it('hands out copies: mutating a result or the inserted object does not change the store', async () => {
        const col = store.collection<Person>('people');
        const doc: Person = { _id: 'x', name: 'X', tags: ['a'], address: { city: 'C', zip: 'Z' } };
        await col.insertOne(doc);
        doc.name = 'changed';
        doc.tags!.push('b');
        const found = (await col.findOne({ _id: 'x' }))!;
        found.address!.city = 'mutated';
        found.tags!.push('c');
        const listed = await col.find({});
        listed[0]!.name = 'mutated too';
        expect(await col.findOne({ _id: 'x' })).toEqual({ _id: 'x', name: 'X', tags: ['a'], address: { city: 'C', zip: 'Z' } });
      });

      it('inserts many documents in order, in one call, and refuses a duplicate among them or with one stored', async () => {
        const col = store.collection<Person>('many');
        await col.insertMany([]);
        await col.insertMany([
          { _id: 'm1', name: 'one', age: 1 },
          { _id: 'm2', name: 'two', age: 2 },
        ]);
        expect(await col.find({}, { sort: { age: 1 } })).toEqual([
          { _id: 'm1', name: 'one', age: 1 },
          { _id: 'm2', name: 'two', age: 2 },
        ]);
        await expect(col.insertMany([{ _id: 'm2', name: 'again' }])).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(
          col.insertMany([
            { _id: 'm3', name: 'three' },
            { _id: 'm3', name: 'three again' },
          ]),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await col.findOne({ _id: 'm2' }))?.name).toBe('two');
        expect((await col.findOne({ _id: 'm3' }))?.name ?? 'three').toBe('three'); // stored before the duplicate, or not at all
        expect(await col.count({ name: 'three again' })).toBe(0);
      });

      it('returns the same collection for the same name, and keeps collections apart', async () => {
        const a = store.collection<Person>('people');
        const b = store.collection<Person>('people');
        const other = store.collection<Person>('others');
        await a.insertOne({ _id: '1', name: 'one' });
        expect(await b.findOne({ _id: '1' })).toEqual({ _id: '1', name: 'one' });
        expect(await other.count({})).toBe(0);
        await other.insertOne({ _id: '1', name: 'not a duplicate' });
        expect(await a.count({})).toBe(1);
      });
    });

    describe('filters', () => {
      it('matches equality on several fields and on nested fields by dotted path', async () => {
        const col = await seeded();
        expect(ids(await col.find({ age: 41 }))).toEqual(['p2', 'p5']);
        expect(ids(await col.find({ age: 41, name: 'Alan' }))).toEqual(['p2']);
        expect(ids(await col.find({ 'address.city': 'New York' }))).toEqual(['p3']);
        expect(ids(await col.find({ name: 'Nobody' }))).toEqual([]);
      });

      it('matches comparison operators', async () => {
        const col = await seeded();
        expect(ids(await col.find({ age: { $gt: 41 } }))).toEqual(['p3', 'p4']);
        expect(ids(await col.find({ age: { $gte: 41, $lt: 80 } }))).toEqual(['p2', 'p4', 'p5']);
        expect(ids(await col.find({ age: { $lte: 36 } }))).toEqual(['p1']);
        expect(ids(await col.find({ age: { $ne: 41 } }))).toEqual(['p1', 'p3', 'p4']);
        expect(ids(await col.find({ createdAt: { $gte: '2024-01-03T00:00:00.000Z' } }))).toEqual(['p1', 'p4', 'p5']);
      });

      it('matches $in and $nin, on scalars and on array fields', async () => {
        const col = await seeded();
        expect(ids(await col.find({ _id: { $in: ['p2', 'p4', 'zz'] } }))).toEqual(['p2', 'p4']);
        expect(ids(await col.find({ _id: { $nin: ['p1', 'p2'] } }))).toEqual(['p3', 'p4', 'p5']);
        expect(ids(await col.find({ tags: { $in: ['navy', 'math'] } }))).toEqual(['p1', 'p3']);
        expect(ids(await col.find({ _id: { $in: [] } }))).toEqual([]);
      });

      it('matches an element of an array field by equality', async () => {
        const col = await seeded();
        expect(ids(await col.find({ tags: 'code' }))).toEqual(['p1', 'p2', 'p3']);
      });

      it('matches $regex, given as a string with $options or as a RegExp', async () => {
        const col = await seeded();
        expect(ids(await col.find({ name: { $regex: '^a', $options: 'i' } }))).toEqual(['p1', 'p2']);
        expect(ids(await col.find({ name: { $regex: '^a' } }))).toEqual([]);
        expect(ids(await col.find({ name: /^B/i }))).toEqual(['p5']);
        expect(ids(await col.find({ 'address.city': { $regex: 'o' } }))).toEqual(['p1', 'p3', 'p5']);
      });

      it('matches $or, $and and $nor', async () => {
        const col = await seeded();
        expect(ids(await col.find({ $or: [{ age: 85 }, { 'address.city': 'London' }] }))).toEqual(['p1', 'p3']);
        expect(ids(await col.find({ $and: [{ age: { $gt: 40 } }, { age: { $lt: 80 } }] }))).toEqual(['p2', 'p4', 'p5']);
        expect(ids(await col.find({ age: 41, $or: [{ name: 'barbara' }, { name: 'Grace' }] }))).toEqual(['p5']);
        expect(ids(await col.find({ $nor: [{ age: 41 }, { tags: 'navy' }] }))).toEqual(['p1', 'p4']);
      });

      it('matches $exists and null (null also matches a missing field)', async () => {
        const col = await seeded();
        await col.insertOne({ _id: 'p6', name: 'Null city', city: null as unknown as string });
        expect(ids(await col.find({ tags: { $exists: false } }))).toEqual(['p5', 'p6']);
        expect(ids(await col.find({ tags: { $exists: true } }))).toEqual(['p1', 'p2', 'p3', 'p4']);
        expect(ids(await col.find({ city: null }))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
        expect(ids(await col.find({ city: { $ne: null } }))).toEqual([]);
      });

      it('counts matching documents', async () => {
        const col = await seeded();
        expect(await col.count({})).toBe(5);
        expect(await col.count({ age: { $gte: 41 } })).toBe(4);
        expect(await col.count({ name: 'Nobody' })).toBe(0);
      });
    });

    describe('sort, skip and limit', () => {
      it('sorts ascending and descending, by a nested field, and by several keys', async () => {
        const col = await seeded();
        expect(ids(await col.find({}, { sort: { createdAt: 1 } }))).toEqual(['p2', 'p3', 'p1', 'p5', 'p4']);
        expect(ids(await col.find({}, { sort: { createdAt: -1 } }))).toEqual(['p4', 'p5', 'p1', 'p3', 'p2']);
        expect(ids(await col.find({}, { sort: { 'address.zip': 1 } }))).toEqual(['p5', 'p3', 'p4', 'p2', 'p1']);
        expect(ids(await col.find({}, { sort: { age: -1, name: 1 } }))).toEqual(['p3', 'p4', 'p2', 'p5', 'p1']);
        expect(ids(await col.find({}, { sort: { age: -1, name: -1 } }))).toEqual(['p3', 'p4', 'p5', 'p2', 'p1']);
      });

      it('pages with skip and limit after sorting', async () => {
        const col = await seeded();
        const page = (skip: number) => col.find({}, { sort: { createdAt: 1 }, skip, limit: 2 });
        expect(ids(await page(0))).toEqual(['p2', 'p3']);
        expect(ids(await page(2))).toEqual(['p1', 'p5']);
        expect(ids(await page(4))).toEqual(['p4']);
        expect(ids(await page(6))).toEqual([]);
        expect(ids(await col.find({ age: { $gt: 40 } }, { sort: { age: 1, _id: 1 }, limit: 3 }))).toEqual(['p2', 'p5', 'p4']);
      });

      it('findOne takes the first document of the sort order', async () => {
        const col = await seeded();
        expect((await col.findOne({}, { sort: { age: -1 } }))?._id).toBe('p3');
        expect((await col.findOne({ age: 41 }, { sort: { name: -1 } }))?._id).toBe('p5');
      });
    });

    describe('update operators', () => {
      it('$set sets top-level and nested fields (creating missing parents); $unset removes fields', async () => {
        const col = await seeded();
        expect(
          await col.updateOne(
            { _id: 'p1' },
            { $set: { name: 'Ada L.', 'address.city': 'Paris', 'prefs.theme': 'dark' }, $unset: { tags: '' } },
          ),
        ).toEqual({
          matched: 1,
          upserted: false,
        });
        expect(await col.findOne({ _id: 'p1' })).toEqual({
          _id: 'p1',
          name: 'Ada L.',
          age: 36,
          address: { city: 'Paris', zip: 'N1' },
          prefs: { theme: 'dark' },
          createdAt: '2024-01-03T00:00:00.000Z',
        });
      });

      it('$inc adds (starting from 0 for a missing field), $max and $min keep the larger and smaller value', async () => {
        const col = await seeded();
        await col.updateOne({ _id: 'p2' }, { $inc: { age: 2, visits: 1 } });
        await col.updateOne({ _id: 'p2' }, { $inc: { visits: 1 } });
        await col.updateOne({ _id: 'p2' }, { $inc: { age: -1 } });
        expect(await col.findOne({ _id: 'p2' })).toMatchObject({ age: 42, visits: 2 });
        await col.updateOne({ _id: 'p3' }, { $max: { age: 80, createdAt: '2024-02-01T00:00:00.000Z' } });
        await col.updateOne({ _id: 'p3' }, { $min: { age: 90 } });
        expect(await col.findOne({ _id: 'p3' })).toMatchObject({ age: 85, createdAt: '2024-02-01T00:00:00.000Z' });
        await col.updateOne({ _id: 'p3' }, { $min: { age: 20 } });
        expect((await col.findOne({ _id: 'p3' }))?.age).toBe(20);
      });

      it('$push appends (with $each and $slice), $addToSet adds once, $pull removes matching elements', async () => {
        const col = await seeded();
        await col.updateOne({ _id: 'p4' }, { $push: { tags: 'algol' } });
        await col.updateOne({ _id: 'p4' }, { $push: { tags: { $each: ['x', 'y', 'z'], $slice: -3 } } });
        expect((await col.findOne({ _id: 'p4' }))?.tags).toEqual(['x', 'y', 'z']);
        await col.updateOne({ _id: 'p5' }, { $push: { tags: 'new' } });
        expect((await col.findOne({ _id: 'p5' }))?.tags).toEqual(['new']);
        await col.updateOne({ _id: 'p1' }, { $addToSet: { tags: 'math' } });
        await col.updateOne({ _id: 'p1' }, { $addToSet: { tags: 'logic' } });
        expect((await col.findOne({ _id: 'p1' }))?.tags).toEqual(['math', 'code', 'logic']);
        await col.updateOne({ _id: 'p1' }, { $pull: { tags: { $in: ['math', 'logic'] } } });
        expect((await col.findOne({ _id: 'p1' }))?.tags).toEqual(['code']);
      });

      it('updateOne changes only the first match and reports a miss', async () => {
        const col = await seeded();
        expect(await col.updateOne({ age: 41 }, { $set: { city: 'same' } })).toEqual({ matched: 1, upserted: false });
        expect(await col.count({ city: 'same' })).toBe(1);
        expect(await col.updateOne({ age: 1000 }, { $set: { city: 'none' } })).toEqual({ matched: 0, upserted: false });
        expect(await col.count({ city: 'none' })).toBe(0);
        expect(await col.count({})).toBe(5);
      });

      it('updateOne counts a match whose update changes nothing', async () => {
        const col = await seeded();
        expect(await col.updateOne({ _id: 'p1' }, { $set: { name: 'Ada' } })).toEqual({ matched: 1, upserted: false });
      });

      it('updateMany changes every match', async () => {
        const col = await seeded();
        expect(await col.updateMany({ tags: 'code' }, { $set: { coder: true }, $inc: { age: 1 } })).toEqual({ matched: 3 });
        expect(ids(await col.find({ coder: true }))).toEqual(['p1', 'p2', 'p3']);
        expect((await col.findOne({ _id: 'p3' }))?.age).toBe(86);
        expect((await col.findOne({ _id: 'p4' }))?.age).toBe(72);
        expect(await col.updateMany({ name: 'Nobody' }, { $set: { coder: false } })).toEqual({ matched: 0 });
      });

      it('rejects an update without operators', async () => {
        const col = await seeded();
        await expect(col.updateOne({ _id: 'p1' }, { name: 'replaced' })).rejects.toThrow();
        expect((await col.findOne({ _id: 'p1' }))?.name).toBe('Ada');
      });

      it('applies concurrent updates of one document one after another (no lost update)', async () => {
        const col = store.collection<Person>('counters');
        await col.insertOne({ _id: 'c', name: 'counter', visits: 0 });
        await Promise.all(Array.from({ length: 25 }, () => col.updateOne({ _id: 'c' }, { $inc: { visits: 1 } })));
        expect((await col.findOne({ _id: 'c' }))?.visits).toBe(25);
      });
    });

    describe('upsert', () => {
      it('inserts from the filter equalities plus the update, $setOnInsert only on insert', async () => {
        const col = store.collection<Person>('people');
        const update = { $set: { name: 'Counter' }, $inc: { visits: 1 }, $setOnInsert: { createdAt: '2024-05-01T00:00:00.000Z' } };
        expect(await col.updateOne({ _id: 'u1', projectId: 'proj', 'address.city': 'Oslo' }, update, { upsert: true })).toEqual({
          matched: 0,
          upserted: true,
        });
        expect(await col.findOne({ _id: 'u1' })).toEqual({
          _id: 'u1',
          projectId: 'proj',
          address: { city: 'Oslo' },
          name: 'Counter',
          visits: 1,
          createdAt: '2024-05-01T00:00:00.000Z',
        });
        const again = { ...update, $setOnInsert: { createdAt: '2030-01-01T00:00:00.000Z' } };
        expect(await col.updateOne({ _id: 'u1', projectId: 'proj', 'address.city': 'Oslo' }, again, { upsert: true })).toEqual({
          matched: 1,
          upserted: false,
        });
        expect(await col.findOne({ _id: 'u1' })).toMatchObject({ visits: 2, createdAt: '2024-05-01T00:00:00.000Z' });
        expect(await col.count({})).toBe(1);
      });

      it('takes $eq and $and equalities, ignores other operators, and gives the new document an _id when the filter has none', async () => {
        const col = store.collection<Person>('people');
        await col.updateOne(
          { $and: [{ projectId: 'p' }, { email: { $eq: 'a@b.c' } }], age: { $gt: 3 } },
          { $set: { name: 'N' } },
          { upsert: true },
        );
        const [doc] = await col.find({});
        expect(doc).toMatchObject({ projectId: 'p', email: 'a@b.c', name: 'N' });
        expect(doc).not.toHaveProperty('age');
        expect(typeof doc!._id).toBe('string');
        expect(doc!._id.length).toBeGreaterThan(0);
      });

      it('findOneAndUpdate returns the document after the update, the upserted one, or null', async () => {
        const col = await seeded();
        expect(await col.findOneAndUpdate({ _id: 'p2' }, { $inc: { age: 1 } })).toMatchObject({ _id: 'p2', age: 42 });
        expect(await col.findOneAndUpdate({ _id: 'zz' }, { $set: { name: 'Z' } })).toBeNull();
        expect(await col.count({ _id: 'zz' })).toBe(0);
        expect(await col.findOneAndUpdate({ _id: 'zz' }, { $set: { name: 'Z' }, $setOnInsert: { age: 1 } }, { upsert: true })).toEqual({
          _id: 'zz',
          name: 'Z',
          age: 1,
        });
        expect(await col.findOne({ _id: 'zz' })).toEqual({ _id: 'zz', name: 'Z', age: 1 });
      });

      it('findOneAndUpdate as a sequence allocator: concurrent calls get distinct values', async () => {
        const col = store.collection<WithId & { next: number }>('sequences');
        const values = await Promise.all(
          Array.from(
            { length: 10 },
            async () => (await col.findOneAndUpdate({ _id: 'seq' }, { $inc: { next: 1 } }, { upsert: true }))!.next,
          ),
        );
        expect([...values].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      });
    });

    describe('replace and delete', () => {
      it('replaceOne replaces the whole document and keeps its _id', async () => {
        const col = await seeded();
        expect(await col.replaceOne({ name: 'Alan' }, { _id: 'p2', name: 'Alan T.', age: 42 })).toEqual({ matched: 1 });
        expect(await col.findOne({ _id: 'p2' })).toEqual({ _id: 'p2', name: 'Alan T.', age: 42 });
        expect(await col.replaceOne({ name: 'Nobody' }, { _id: 'n', name: 'N' })).toEqual({ matched: 0 });
        expect(await col.count({})).toBe(5);
      });

      it('replaceOne with upsert inserts when nothing matches', async () => {
        const col = await seeded();
        expect(await col.replaceOne({ _id: 'p9' }, { _id: 'p9', name: 'Nine' }, { upsert: true })).toEqual({ matched: 0 });
        expect(await col.findOne({ _id: 'p9' })).toEqual({ _id: 'p9', name: 'Nine' });
        expect(await col.replaceOne({ _id: 'p9' }, { _id: 'p9', name: 'Nine again' }, { upsert: true })).toEqual({ matched: 1 });
        expect(await col.findOne({ _id: 'p9' })).toEqual({ _id: 'p9', name: 'Nine again' });
      });

      it('deleteOne removes the first match, deleteMany every match, both answer how many', async () => {
        const col = await seeded();
        expect(await col.deleteOne({ age: 41 })).toBe(1);
        expect(await col.count({ age: 41 })).toBe(1);
        expect(await col.deleteOne({ name: 'Nobody' })).toBe(0);
        expect(await col.deleteMany({ age: { $gt: 50 } })).toBe(2);
        expect(await col.count({ age: { $gt: 50 } })).toBe(0);
        expect(await col.count({})).toBe(2);
        expect(await col.deleteMany({})).toBe(2);
        expect(await col.find({})).toEqual([]);
      });
    });

    describe('unique indexes', () => {
      const keys = () =>
        store.collection<Person>('keys', [
          { keys: { email: 1 }, unique: true },
          { keys: { projectId: 1, name: 1 }, unique: true },
          { keys: { age: 1 } },
        ]);

      it('rejects an insert that repeats a unique key, single or compound', async () => {
        const col = keys();
        await col.insertOne({ _id: 'a', email: 'a@x', projectId: 'p', name: 'A', age: 1 });
        await col.insertOne({ _id: 'b', email: 'b@x', projectId: 'p', name: 'B', age: 1 });
        await col.insertOne({ _id: 'c', email: 'c@x', projectId: 'q', name: 'A', age: 1 });
        await expect(col.insertOne({ _id: 'd', email: 'a@x', projectId: 'r', name: 'D' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(col.insertOne({ _id: 'e', email: 'e@x', projectId: 'p', name: 'B' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(ids(await col.find({}, { sort: { _id: 1 } }))).toEqual(['a', 'b', 'c']);
      });

      it('rejects an insertMany that repeats a unique key, with a stored document or between its own', async () => {
        const col = keys();
        await col.insertOne({ _id: 'a', email: 'a@x', projectId: 'p', name: 'A' });
        await expect(col.insertMany([{ _id: 'b', email: 'a@x', projectId: 'p', name: 'B' }])).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(
          col.insertMany([
            { _id: 'c', email: 'c@x', projectId: 'q', name: 'C' },
            { _id: 'd', email: 'd@x', projectId: 'q', name: 'C' },
          ]),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await col.count({ _id: { $in: ['b', 'd'] } })).toBe(0);
        await col.insertMany([
          { _id: 'e', email: 'e@x', projectId: 'r', name: 'E' },
          { _id: 'f', email: 'f@x', projectId: 'r', name: 'F' },
        ]);
        expect(await col.count({ projectId: 'r' })).toBe(2);
      });

      it('rejects an update or an upsert that would repeat a unique key, leaving the data unchanged', async () => {
        const col = keys();
        await col.insertOne({ _id: 'a', email: 'a@x', projectId: 'p', name: 'A' });
        await col.insertOne({ _id: 'b', email: 'b@x', projectId: 'p', name: 'B' });
        await expect(col.updateOne({ _id: 'b' }, { $set: { email: 'a@x' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(col.updateMany({ _id: 'b' }, { $set: { projectId: 'p', name: 'A' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(
          col.updateOne({ _id: 'c' }, { $set: { email: 'a@x', projectId: 'z', name: 'Z' } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(col.replaceOne({ _id: 'b' }, { _id: 'b', email: 'a@x', projectId: 'y', name: 'Y' })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await col.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', email: 'a@x', projectId: 'p', name: 'A' },
          { _id: 'b', email: 'b@x', projectId: 'p', name: 'B' },
        ]);
      });

      it('frees a key when its document is deleted or changed, and lets a document keep its own key', async () => {
        const col = keys();
        await col.insertOne({ _id: 'a', email: 'a@x', projectId: 'p', name: 'A' });
        await col.insertOne({ _id: 'b', email: 'b@x', projectId: 'p', name: 'B' });
        await col.updateOne({ _id: 'a' }, { $set: { email: 'a@x', visits: 1 } });
        await col.updateOne({ _id: 'a' }, { $set: { email: 'a2@x' } });
        await col.insertOne({ _id: 'c', email: 'a@x', projectId: 'q', name: 'C' });
        await col.deleteOne({ _id: 'b' });
        await col.insertOne({ _id: 'd', email: 'b@x', projectId: 'p', name: 'B' });
        expect(ids(await col.find({}, { sort: { _id: 1 } }))).toEqual(['a', 'c', 'd']);
      });

      it('still enforces the index after a reopen', async () => {
        await keys().insertOne({ _id: 'a', email: 'a@x', projectId: 'p', name: 'A' });
        await reopen();
        await expect(keys().insertOne({ _id: 'b', email: 'a@x', projectId: 'q', name: 'B' })).rejects.toBeInstanceOf(DuplicateKeyError);
      });
    });

    describe('persistence', () => {
      it('keeps every acknowledged write across a close and reopen', async () => {
        const col = await seeded();
        await col.updateOne({ _id: 'p1' }, { $set: { 'address.city': 'Paris' }, $push: { tags: 'x' } });
        await col.deleteOne({ _id: 'p2' });
        await col.replaceOne({ _id: 'p3' }, { _id: 'p3', name: 'Grace H.' });
        await col.updateOne({ _id: 'p7' }, { $set: { name: 'Up' } }, { upsert: true });
        await store.collection<Person>('other').insertOne({ _id: 'o', name: 'O' });
        const before = await col.find({}, { sort: { _id: 1 } });
        await reopen();
        const after = store.collection<Person>('people');
        expect(await after.find({}, { sort: { _id: 1 } })).toEqual(before);
        expect(ids(before)).toEqual(['p1', 'p3', 'p4', 'p5', 'p7']);
        expect(await store.collection<Person>('other').findOne({ _id: 'o' })).toEqual({ _id: 'o', name: 'O' });
        await after.insertOne({ _id: 'p8', name: 'After' });
        expect(await after.count({})).toBe(6);
      });
    });

    it('refuses work after close', async () => {
      const col = store.collection<Person>('people');
      await store.close();
      closedByTest();
      await expect(col.insertOne({ _id: 'late', name: 'Late' })).rejects.toThrow();
    });
  });
}
