import { randomUUID } from 'node:crypto';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Query } from 'mingo';
import type { Modifier } from 'mingo/updater';
import { update as applyModifier } from 'mingo/updater';
import { resolve } from 'mingo/util';
import { copyJsonValue, jsonCopy } from '../json/json-copy';
import { JsonlLog } from '../storage/jsonl-log';
import { SerialQueue } from '../storage/serial-queue';
import type {
  Collection,
  CollectionOptions,
  DocumentStore,
  Filter,
  FindOptions,
  IndexSpec,
  Sort,
  Update,
  WithId,
} from './document-store.port';
import { DuplicateKeyError } from './document-store.port';

type Doc = WithId & Record<string, unknown>;
type LogOp = { op: 'put'; doc: Doc } | { op: 'del'; id: string };
/** One document's change inside a write: before null = insert, after null = delete. */
type Change = { before: Doc | null; after: Doc | null };

const LOG_SUFFIX = '.jsonl';
const COLLECTION_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
/** A log is compacted on open when it holds this many records more than twice the live documents. */
const COMPACTION_SLACK = 100;
// Mongo queries cannot run code, and neither should ours.
const QUERY_OPTIONS = { scriptEnabled: false };
/** Compiled queries kept per collection (building a mingo Query copies its operator tables). */
const QUERY_CACHE_SIZE = 500;

/**
 * The embedded document store: each collection is held in memory and queried with mingo (the
 * MongoDB query language), and persisted as an append-only JSONL log of puts and deletes in
 * `dir`, fsynced before a write resolves (a derived collection's written behind the answer and
 * fsynced at the next `sync()`, see CollectionOptions). Documents are stored as JSON (a Date
 * becomes its ISO string, as every timestamp in the contracts already is).
 */
export class EmbeddedDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, EmbeddedCollection>();
  private closed = false;

  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<EmbeddedDocumentStore> {
    await mkdir(dir, { recursive: true });
    const store = new EmbeddedDocumentStore(dir);
    for (const entry of await readdir(dir)) {
      if (entry.endsWith('.tmp')) {
        await unlink(join(dir, entry)); // a compaction that did not finish
        continue;
      }
      if (!entry.endsWith(LOG_SUFFIX)) continue;
      const name = entry.slice(0, -LOG_SUFFIX.length);
      store.collections.set(name, await EmbeddedCollection.load(name, join(dir, entry)));
    }
    return store;
  }

  collection<T extends WithId>(name: string, indexes: IndexSpec[] = [], options: CollectionOptions = {}): Collection<T> {
    if (this.closed) throw new Error('document store is closed');
    if (!COLLECTION_NAME.test(name)) throw new Error(`invalid collection name: ${JSON.stringify(name)}`);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new EmbeddedCollection(name, join(this.dir, name + LOG_SUFFIX), new Map(), null);
      this.collections.set(name, collection);
    }
    for (const index of indexes) collection.ensureIndex(index);
    if (options.durability === 'derived') collection.deferSync();
    return collection as unknown as Collection<T>;
  }

  async sync(): Promise<void> {
    await Promise.all([...this.collections.values()].map((c) => c.sync()));
  }

  async compact(): Promise<void> {
    if (this.closed) throw new Error('document store is closed');
    await Promise.all([...this.collections.values()].map((c) => c.compact()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.collections.values()].map((c) => c.close()));
  }
}

class UniqueIndex {
  readonly fields: string[];
  /** Key of the indexed values -> _id of the document holding them. */
  readonly entries = new Map<string, string>();

  constructor(keys: Record<string, 1 | -1>) {
    this.fields = Object.keys(keys);
  }

  /** Like MongoDB, a missing field is indexed as null (so two documents without it collide). */
  keyOf(doc: Doc): string {
    return JSON.stringify(this.fields.map((field) => resolve(doc, field) ?? null));
  }

  sameAs(keys: Record<string, 1 | -1>): boolean {
    return JSON.stringify(Object.keys(keys)) === JSON.stringify(this.fields);
  }
}

type Scalar = string | number | boolean | null;
const isScalar = (value: unknown): value is Scalar | undefined =>
  value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * Equality index on one top-level field: value -> ids of the documents holding it. A document
 * whose value is an array or object (which a query can match element-wise) is always a candidate.
 * It only narrows the documents a query is tested against; mingo still decides what matches.
 */
class FieldIndex {
  /**
   * A value held by one document maps to its id alone, by several to a set of their ids: most
   * indexed fields (a sequence number, a timestamp) hold a value of their own in each document,
   * and a set for each of those cost an allocation per write and a few hundred bytes per document.
   */
  private readonly buckets = new Map<Scalar, string | Set<string>>();
  private readonly others = new Set<string>();

  constructor(readonly field: string) {}

  add(doc: Doc): void {
    const value = doc[this.field];
    if (!isScalar(value)) {
      this.others.add(doc._id);
      return;
    }
    const key = value ?? null;
    const bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, doc._id);
    else if (typeof bucket !== 'string') bucket.add(doc._id);
    else if (bucket !== doc._id) this.buckets.set(key, new Set([bucket, doc._id]));
  }

  remove(doc: Doc): void {
    const value = doc[this.field];
    if (!isScalar(value)) {
      this.others.delete(doc._id);
      return;
    }
    const key = value ?? null;
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return;
    if (typeof bucket === 'string') {
      if (bucket === doc._id) this.buckets.delete(key);
    } else if (bucket.delete(doc._id) && bucket.size === 1) {
      this.buckets.set(key, bucket.values().next().value!);
    }
  }

  /**
   * A write's change to one document (`before` null: inserted; `after` null: deleted; both: the
   * same `_id` updated). An update leaves the index alone when this field kept its value: a
   * project's bucket holds every document of the project.
   */
  change(before: Doc | null, after: Doc | null): void {
    if (before && after) {
      const old = before[this.field];
      const now = after[this.field];
      if (isScalar(old) ? isScalar(now) && (old ?? null) === (now ?? null) : !isScalar(now)) return;
    }
    if (before) this.remove(before);
    if (after) this.add(after);
  }

  /** How many documents may equal `value`, without listing them. */
  count(value: Scalar): number {
    const bucket = this.buckets.get(value);
    return (bucket === undefined ? 0 : typeof bucket === 'string' ? 1 : bucket.size) + this.others.size;
  }

  /** Ids of the documents that may equal `value` (unordered). */
  candidates(value: Scalar): string[] {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return [...this.others];
    return typeof bucket === 'string' ? [bucket, ...this.others] : [...bucket, ...this.others];
  }
}

/** The value of a top-level equality condition the indexes can serve (`field: v` or `field: {$eq: v}`), if any. */
const equalityOf = (condition: unknown): { value: string | number | boolean } | null => {
  const value = isOperatorObject(condition) && Object.keys(condition).length === 1 && '$eq' in condition ? condition.$eq : condition;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? { value } : null;
};

interface Matcher {
  test(doc: Doc): boolean;
}

/**
 * The matcher of a filter made only of top-level equalities to a string, number or boolean
 * (`field: v`, `field: {$eq: v}`) and `_id: {$in: [...]}`, the filters nearly every read uses;
 * null for any other filter. A document whose field holds an array or object (which MongoDB
 * matches element-wise) is left to the full query, so the answer is always mingo's.
 */
const equalityMatcher = (filter: Filter, full: () => Matcher): Matcher | null => {
  const equal: Array<[string, string | number | boolean]> = [];
  let ids: Set<string> | null = null;
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return null;
    const equality = equalityOf(condition);
    if (equality) equal.push([field, equality.value]);
    else if (field === '_id' && isOperatorObject(condition) && Object.keys(condition).length === 1 && Array.isArray(condition.$in)) {
      if (!condition.$in.every((v) => typeof v === 'string')) return null;
      ids = new Set(condition.$in as string[]);
    } else return null;
  }
  return {
    test: (doc) => {
      if (ids && !ids.has(doc._id)) return false;
      for (const [field, want] of equal) {
        const value = doc[field];
        if (value === want) continue;
        if (typeof value === 'object' && value !== null) return full().test(doc);
        return false;
      }
      return true;
    },
  };
};

/**
 * `docs` in `sort` order. Fields holding only strings or only numbers are compared directly (as
 * mingo does: strings by UTF-16 code unit); other values (mixed types, missing fields, arrays) are sorted by
 * mingo with MongoDB's ordering across types. Ties keep their natural order.
 */
const sortDocuments = (docs: Doc[], sort: Sort): Doc[] => {
  const fields = Object.entries(sort);
  const direct = fields.every(([field]) => {
    if (field.includes('.')) return false;
    const type = typeof docs[0]?.[field];
    return (type === 'string' || type === 'number') && docs.every((doc) => typeof doc[field] === type);
  });
  if (!direct) return new Query({}, QUERY_OPTIONS).find<Doc>(docs).sort(sort).all();
  return [...docs].sort((a, b) => {
    for (const [field, dir] of fields) {
      const x = a[field] as string | number;
      const y = b[field] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * dir;
    }
    return 0;
  });
};

/** True for plain JSON (what the query cache can key on: a Date or RegExp would not survive JSON.stringify). */
const isPlainJson = (value: unknown): boolean => {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as object).every(isPlainJson);
};

class EmbeddedCollection implements Collection<Doc> {
  private readonly writes = new SerialQueue();
  private readonly uniqueIndexes: UniqueIndex[] = [];
  private readonly fieldIndexes = new Map<string, FieldIndex>();
  /** Natural order: the position of each document in `docs` (a Map keeps insertion order). */
  private readonly positions = new Map<string, number>();
  private nextPosition = 0;
  private readonly queries = new Map<string, Query>();
  private derived = false;
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly path: string,
    private readonly docs: Map<string, Doc>,
    private log: JsonlLog<LogOp> | null,
  ) {
    for (const id of docs.keys()) this.positions.set(id, this.nextPosition++);
  }

  static async load(name: string, path: string): Promise<EmbeddedCollection> {
    const { log, records } = await JsonlLog.open<LogOp>(path);
    const docs = new Map<string, Doc>();
    for (const record of records) {
      if (record.op === 'put') docs.set(record.doc._id, record.doc);
      else docs.delete(record.id);
    }
    if (records.length > 2 * docs.size + COMPACTION_SLACK) {
      await log.rewrite([...docs.values()].map((doc) => ({ op: 'put', doc })));
    }
    return new EmbeddedCollection(name, path, docs, log);
  }

  /** Writes are answered before their fsync, which `sync()` does (see CollectionOptions). */
  deferSync(): void {
    this.derived = true;
    if (this.log) this.log.deferSync = true;
  }

  async sync(): Promise<void> {
    await this.log?.sync();
  }

  /** Rewrites the log with one put per live document, between writes (see DocumentStore.compact). */
  async compact(): Promise<void> {
    await this.writes.run(async () => {
      if (!this.log || this.closed) return;
      await this.log.rewrite([...this.docs.values()].map((doc) => ({ op: 'put', doc })));
    });
  }

  ensureIndex(spec: IndexSpec): void {
    for (const field of Object.keys(spec.keys)) {
      if (field.includes('.') || this.fieldIndexes.has(field)) continue;
      const index = new FieldIndex(field);
      for (const doc of this.docs.values()) index.add(doc);
      this.fieldIndexes.set(field, index);
    }
    if (!spec.unique || this.uniqueIndexes.some((index) => index.sameAs(spec.keys))) return;
    const index = new UniqueIndex(spec.keys);
    for (const doc of this.docs.values()) {
      const key = index.keyOf(doc);
      if (index.entries.has(key)) throw new DuplicateKeyError(this.name, index.fields);
      index.entries.set(key, doc._id);
    }
    this.uniqueIndexes.push(index);
  }

  insertOne(doc: Doc): Promise<void> {
    return this.insert('insertOne', [doc]);
  }

  insertMany(docs: Doc[]): Promise<void> {
    return this.insert('insertMany', docs);
  }

  /** Inserts the documents as one write, refusing all of them when an `_id` is taken or repeated. */
  private async insert(operation: string, docs: Doc[]): Promise<void> {
    const stored = docs.map(toStored);
    for (const doc of stored)
      if (typeof doc._id !== 'string' || doc._id === '')
        throw new TypeError(`${operation} into ${this.name}: _id must be a non-empty string`);
    await this.write(() => {
      const ids = new Set<string>();
      for (const doc of stored) {
        if (this.docs.has(doc._id) || ids.has(doc._id)) throw new DuplicateKeyError(this.name, ['_id']);
        ids.add(doc._id);
      }
      return { changes: stored.map((after) => ({ before: null, after })), result: undefined };
    });
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<Doc | null> {
    const found = this.query(filter, { sort: options.sort, limit: 1 })[0] ?? null;
    await this.settled();
    return found;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    const found = this.query(filter, options);
    await this.settled();
    return found;
  }

  async count(filter: Filter): Promise<number> {
    this.assertOpen();
    const matcher = this.matcher(filter);
    let n = 0;
    for (const doc of this.candidates(filter)) if (matcher.test(doc)) n += 1;
    await this.settled();
    return n;
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<{ matched: number; upserted: boolean }> {
    const { matched, upserted } = await this.updateFirst(filter, update, options.upsert ?? false);
    return { matched, upserted };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<Doc | null> {
    const { doc } = await this.updateFirst(filter, update, options.upsert ?? false);
    return doc ? copyJsonValue(doc) : null;
  }

  async updateMany(filter: Filter, update: Update): Promise<{ matched: number }> {
    const modifier = parseUpdate(update);
    return this.write(() => {
      const matches = this.matching(filter);
      const changes: Change[] = [];
      for (const before of matches) {
        const after = this.modified(before, modifier.update);
        if (after) changes.push({ before, after });
      }
      return { changes, result: { matched: matches.length } };
    });
  }

  async replaceOne(filter: Filter, doc: Doc, options: { upsert?: boolean } = {}): Promise<{ matched: number }> {
    const replacement = toStored(doc);
    for (const key of Object.keys(replacement)) {
      if (key.startsWith('$')) throw new Error(`replaceOne in ${this.name}: a replacement cannot contain operators (${key})`);
    }
    return this.write(() => {
      const before = this.matching(filter, 1)[0];
      if (before) {
        if (replacement._id !== undefined && replacement._id !== before._id) {
          throw new Error(`replaceOne in ${this.name}: _id is immutable`);
        }
        return { changes: [{ before, after: { ...replacement, _id: before._id } }], result: { matched: 1 } };
      }
      if (!options.upsert) return { changes: [], result: { matched: 0 } };
      const seed = seedFromFilter(filter);
      const id = replacement._id ?? (typeof seed._id === 'string' ? seed._id : randomUUID());
      if (this.docs.has(id)) throw new DuplicateKeyError(this.name, ['_id']);
      return { changes: [{ before: null, after: { ...replacement, _id: id } }], result: { matched: 0 } };
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.write(() => {
      const changes = this.matching(filter, 1).map((before) => ({ before, after: null }));
      return { changes, result: changes.length };
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.write(() => {
      const changes = this.matching(filter).map((before) => ({ before, after: null }));
      return { changes, result: changes.length };
    });
  }

  async close(): Promise<void> {
    await this.writes.run(async () => {
      this.closed = true;
      await this.log?.close();
    });
  }

  private query(filter: Filter, options: FindOptions): Doc[] {
    this.assertOpen();
    const sorted = options.sort !== undefined && Object.keys(options.sort).length > 0;
    const skip = options.skip ?? 0;
    // Without a sort, the scan can stop at the last document the page needs.
    const needed = !sorted && options.limit ? skip + options.limit : Infinity;
    let found = this.matching(filter, needed);
    if (sorted) found = sortDocuments(found, options.sort as Sort);
    if (skip > 0 || options.limit) found = found.slice(skip, options.limit ? skip + options.limit : undefined);
    return found.map((doc) => copyJsonValue(doc));
  }

  /** The stored documents (not copies) matching `filter`, in natural order. */
  private matching(filter: Filter, limit = Infinity): Doc[] {
    const matcher = this.matcher(filter);
    const found: Doc[] = [];
    if (limit <= 0) return found;
    for (const doc of this.candidates(filter)) {
      if (matcher.test(doc)) {
        found.push(doc);
        if (found.length >= limit) break;
      }
    }
    return found;
  }

  /** A plain equality filter is tested directly; anything else by its compiled mingo query. */
  private matcher(filter: Filter): Matcher {
    return equalityMatcher(filter, () => this.compiled(filter)) ?? this.compiled(filter);
  }

  /** The compiled query of `filter`, reused while the same filter keeps coming (least recently used dropped). */
  private compiled(filter: Filter): Query {
    if (!isPlainJson(filter)) return new Query(filter, QUERY_OPTIONS);
    const key = JSON.stringify(filter);
    let query = this.queries.get(key);
    if (query) this.queries.delete(key);
    else {
      query = new Query(filter, QUERY_OPTIONS);
      if (this.queries.size >= QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value!);
    }
    this.queries.set(key, query);
    return query;
  }

  /**
   * The documents `filter` can match, in natural order: those an `_id` or an indexed field's
   * equality narrows it to, else all of them.
   */
  private candidates(filter: Filter): Iterable<Doc> {
    let ids: string[] | null = null;
    const id = filter._id;
    if (typeof id === 'string') ids = [id];
    else if (isOperatorObject(id) && Object.keys(id).length === 1 && Array.isArray(id.$in) && id.$in.every((v) => typeof v === 'string'))
      ids = [...new Set(id.$in as string[])];
    else if (equalityOf(id)) ids = [String(equalityOf(id)!.value)];
    for (const [field, condition] of Object.entries(filter)) {
      const index = this.fieldIndexes.get(field);
      const equality = index ? equalityOf(condition) : null;
      if (!index || !equality) continue;
      // Listed only when smaller than what narrows the query so far: `{_id, projectId}` must not
      // copy the ids of every document of the project.
      if (ids === null || index.count(equality.value) < ids.length) ids = index.candidates(equality.value);
    }
    if (ids === null) return this.docs.values();
    const docs: Doc[] = [];
    for (const candidate of ids) {
      const doc = this.docs.get(candidate);
      if (doc) docs.push(doc);
    }
    if (docs.length > 1) docs.sort((a, b) => this.positions.get(a._id)! - this.positions.get(b._id)!);
    return docs;
  }

  /** A modified copy of `doc`, or null when the update changes nothing. */
  private modified(doc: Doc, modifier: Modifier<Doc>): Doc | null {
    const direct = scalarUpdate(doc, modifier);
    if (direct !== undefined) return direct;
    const copy = copyJsonValue(doc);
    const changed = applyModifier(copy, modifier, undefined, undefined, { cloneMode: 'deep' });
    if (changed.length === 0) return null;
    if (copy._id !== doc._id) throw new Error(`update in ${this.name}: _id is immutable`);
    return toStored(copy);
  }

  private updateFirst(filter: Filter, update: Update, upsert: boolean): Promise<{ matched: number; upserted: boolean; doc: Doc | null }> {
    const modifier = parseUpdate(update);
    return this.write<{ matched: number; upserted: boolean; doc: Doc | null }>(() => {
      const before = this.matching(filter, 1)[0];
      if (before) {
        const after = this.modified(before, modifier.update);
        return {
          changes: after ? [{ before, after }] : [],
          result: { matched: 1, upserted: false, doc: after ?? before },
        };
      }
      if (!upsert) return { changes: [], result: { matched: 0, upserted: false, doc: null } };
      const seed = seedFromFilter(filter);
      const { $set, ...others } = modifier.insert as Record<string, Record<string, unknown> | undefined>;
      const { _id: setId, ...setRest } = $set ?? {};
      if (setId !== undefined && seed._id === undefined) seed._id = setId;
      const insert = (Object.keys(setRest).length > 0 ? { ...others, $set: setRest } : others) as Modifier<Doc>;
      if (Object.keys(insert).length > 0) applyModifier(seed, insert, undefined, undefined, { cloneMode: 'deep' });
      if (seed._id === undefined) seed._id = randomUUID();
      const inserted = toStored(seed as Doc);
      if (this.docs.has(inserted._id)) throw new DuplicateKeyError(this.name, ['_id']);
      return { changes: [{ before: null, after: inserted }], result: { matched: 0, upserted: true, doc: inserted } };
    });
  }

  /**
   * Runs one write: `plan` (run after the writes before it) returns the changes, which are checked
   * against the unique indexes, queued on the log and applied in memory; the write resolves once
   * the log has fsynced them. Writes do not wait for each other's fsync, so concurrent ones share
   * one (group commit, see JsonlLog); reads wait for the writes before them to be durable, so
   * nothing is read that a crash could still take back.
   */
  private async write<R>(plan: () => { changes: Change[]; result: R }): Promise<R> {
    // Once the log is open a write is synchronous: with nothing queued before it, it needs no
    // turn through the queue (a chat message makes about ten writes).
    const { durable, result } =
      this.log && this.writes.idle
        ? this.apply(this.log, plan)
        : await this.writes.run(async () => {
            this.assertOpen();
            if (!this.log) {
              this.log = (await JsonlLog.open<LogOp>(this.path)).log;
              this.log.deferSync = this.derived;
            }
            return this.apply(this.log, plan);
          });
    await durable;
    return result;
  }

  /** Plans the changes, checks them against the unique indexes, queues them on the log and applies them in memory. */
  private apply<R>(log: JsonlLog<LogOp>, plan: () => { changes: Change[]; result: R }): { durable: Promise<void>; result: R } {
    this.assertOpen();
    const { changes, result } = plan();
    if (changes.length === 0) return { durable: log.durable(), result };
    const indexUpdates = this.checkUniqueIndexes(changes);
    const durable = log.append(changes.map((c) => (c.after ? { op: 'put', doc: c.after } : { op: 'del', id: c.before!._id })));
    for (const { before, after } of changes) {
      for (const index of this.fieldIndexes.values()) index.change(before, after);
      if (after) {
        if (!this.docs.has(after._id)) this.positions.set(after._id, this.nextPosition++);
        this.docs.set(after._id, after);
      } else {
        this.docs.delete(before!._id);
        this.positions.delete(before!._id);
      }
    }
    indexUpdates();
    return { durable, result };
  }

  /** What a read sees is durable: it waits for the writes in flight (at once when there are none). */
  private async settled(): Promise<void> {
    if (this.log?.pending) await this.log.durable();
  }

  /** Throws DuplicateKeyError if the changes would break a unique index; else returns how to update the indexes. */
  private checkUniqueIndexes(changes: Change[]): () => void {
    const updates: Array<() => void> = [];
    for (const index of this.uniqueIndexes) {
      // What the index would hold after the changes, on top of what it holds now.
      const overlay = new Map<string, string | null>();
      const holder = (key: string) => (overlay.has(key) ? overlay.get(key)! : (index.entries.get(key) ?? null));
      for (const { before } of changes) {
        if (!before) continue;
        const key = index.keyOf(before);
        if (holder(key) === before._id) overlay.set(key, null);
      }
      for (const { after } of changes) {
        if (!after) continue;
        const key = index.keyOf(after);
        const current = holder(key);
        if (current !== null && current !== after._id) throw new DuplicateKeyError(this.name, index.fields);
        overlay.set(key, after._id);
      }
      updates.push(() => {
        for (const [key, id] of overlay) {
          if (id === null) index.entries.delete(key);
          else index.entries.set(key, id);
        }
      });
    }
    return () => {
      for (const apply of updates) apply();
    };
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`collection ${this.name} is closed`);
  }
}

/**
 * `doc` after an update made only of `$set` to strings, finite numbers, booleans or null and
 * `$inc` by finite numbers, on top-level fields other than `_id` (a counter, a status: most
 * updates), applied directly: the changed copy, or null when it changes nothing. Undefined for
 * any other update, which mingo applies.
 */
const scalarUpdate = (doc: Doc, modifier: Modifier<Doc>): Doc | null | undefined => {
  const { $set, $inc, ...others } = modifier as Record<string, Record<string, unknown> | undefined>;
  if (Object.keys(others).length > 0) return undefined;
  const isField = (field: string) => field !== '_id' && field !== '__proto__' && !field.includes('.') && !field.startsWith('$');
  const isJsonScalar = (value: unknown) =>
    value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
  const sets = Object.entries($set ?? {});
  const incs = Object.entries($inc ?? {});
  if (!sets.every(([field, value]) => isField(field) && isJsonScalar(value))) return undefined;
  if (!incs.every(([field, by]) => isField(field) && typeof by === 'number' && Number.isFinite(by))) return undefined;
  if (incs.some(([field]) => (doc[field] !== undefined && typeof doc[field] !== 'number') || sets.some(([set]) => set === field)))
    return undefined;
  let changed = false;
  const after: Doc = { ...doc };
  for (const [field, value] of sets) {
    if (after[field] === value && Object.hasOwn(after, field)) continue;
    after[field] = value;
    changed = true;
  }
  for (const [field, by] of incs) {
    const value = ((after[field] as number | undefined) ?? 0) + (by as number);
    if (!Number.isFinite(value)) return undefined;
    if (after[field] === value) continue;
    after[field] = value;
    changed = true;
  }
  // Stored documents are never changed in place, so the new one may share their nested values.
  return changed ? after : null;
};

/** Documents are stored as their JSON form, so what is in memory is exactly what a reload gives. */
const toStored = (doc: Doc): Doc => jsonCopy(doc) as Doc;

/** Splits an update into what applies to an existing document and what applies on insert ($setOnInsert). */
const parseUpdate = (update: Update): { update: Modifier<Doc>; insert: Modifier<Doc> } => {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new Error('an update needs at least one operator');
  const bad = keys.find((key) => !key.startsWith('$'));
  if (bad) throw new Error(`an update must use operators ($set, ...), got field ${JSON.stringify(bad)}`);
  const { $setOnInsert, ...rest } = update as Record<string, Record<string, unknown>>;
  const onUpdate = rest as Modifier<Doc>;
  if (!$setOnInsert) return { update: onUpdate, insert: onUpdate };
  return { update: onUpdate, insert: { ...rest, $set: { ...(rest.$set ?? {}), ...$setOnInsert } } as Modifier<Doc> };
};

/**
 * The document an upsert starts from, as MongoDB builds it: the filter's equality conditions
 * (`field: value`, `field: { $eq: value }`, and those inside `$and`).
 */
const seedFromFilter = (filter: Filter): Record<string, unknown> => {
  const equalities: Record<string, unknown> = {};
  const collect = (clause: Filter) => {
    for (const [key, value] of Object.entries(clause)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const sub of value) collect(sub as Filter);
        continue;
      }
      if (key.startsWith('$')) continue;
      if (value instanceof RegExp) continue;
      if (isOperatorObject(value)) {
        if ('$eq' in value) equalities[key] = value.$eq;
        continue;
      }
      equalities[key] = value;
    }
  };
  collect(filter);
  // mingo refuses to $set an _id (immutable), so it is placed directly.
  const { _id, ...rest } = equalities;
  const seed: Record<string, unknown> = _id === undefined ? {} : { _id };
  if (Object.keys(rest).length > 0)
    applyModifier(seed, { $set: rest } as Modifier<Record<string, unknown>>, undefined, undefined, { cloneMode: 'deep' });
  return seed;
};

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length > 0 &&
  Object.keys(value).every((key) => key.startsWith('$'));
