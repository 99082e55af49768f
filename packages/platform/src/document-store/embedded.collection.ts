import { randomUUID } from 'node:crypto';
import type { Modifier } from 'mingo/updater';
import { update as applyModifier } from 'mingo/updater';
import { copyJsonValue } from '../json/json-copy';
import { JsonlLog } from '../storage/jsonl-log';
import { SerialQueue } from '../storage/serial-queue';
import {
  type Collection,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Sort,
  type Update,
} from './document-store.port';
import type { Change, Doc, LogOp } from './embedded.doc';
import { CollectionIndexes } from './embedded.indexes';
import { equalityOf, isOperatorObject, QueryCache, sortDocuments } from './embedded.query';
import { parseUpdate, scalarUpdate, seedFromFilter, toStored } from './embedded.update';

/** A log is compacted on open when it holds this many records more than twice the live documents. */
const COMPACTION_SLACK = 100;

/**
 * One collection of the embedded store: its documents in memory (natural order kept), its
 * indexes, and its JSONL log. Writes go through `write` one at a time; reads are synchronous
 * scans narrowed by the indexes, answered once the writes before them are durable.
 */
export class EmbeddedCollection implements Collection<Doc> {
  private readonly writes = new SerialQueue();
  private readonly indexes = new CollectionIndexes();
  /** Natural order: the position of each document in `docs` (a Map keeps insertion order). */
  private readonly positions = new Map<string, number>();
  private nextPosition = 0;
  private readonly queries = new QueryCache();
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
    this.indexes.ensure(this.name, spec, this.docs);
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
    const matcher = this.queries.matcher(filter);
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
    const matcher = this.queries.matcher(filter);
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
      const index = this.indexes.field(field);
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
    const indexUpdates = this.indexes.check(this.name, changes);
    const durable = log.append(changes.map((c) => (c.after ? { op: 'put', doc: c.after } : { op: 'del', id: c.before!._id })));
    for (const { before, after } of changes) {
      this.indexes.change(before, after);
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

  private assertOpen(): void {
    if (this.closed) throw new Error(`collection ${this.name} is closed`);
  }
}
