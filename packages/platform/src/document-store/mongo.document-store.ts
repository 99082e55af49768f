import { randomUUID } from 'node:crypto';
import type { Db, Document, Collection as DriverCollection, Filter as DriverFilter, UpdateFilter } from 'mongodb';
import { MongoClient, MongoServerError } from 'mongodb';
import type { Collection, DocumentStore, Filter, FindOptions, IndexSpec, Update, WithId } from './document-store.port';
import { DuplicateKeyError } from './document-store.port';
import { mongoClientOptions, withRetries } from './mongo-options';

/**
 * The document store on MongoDB: a thin pass-through of the same filters, sorts and update
 * operators the embedded store runs with mingo. Declared indexes are created (once) before the
 * collection's first operation.
 */
export class MongoDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, MongoCollection>();
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  static async connect(url: string, dbName: string): Promise<MongoDocumentStore> {
    // ignoreUndefined: an undefined field is left out, as the embedded store (JSON) does.
    const client = new MongoClient(url, mongoClientOptions);
    await client.connect();
    return new MongoDocumentStore(client, client.db(dbName));
  }

  collection<T extends WithId>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    if (this.closed) throw new Error('document store is closed');
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MongoCollection(name, this.db.collection<Document & WithId>(name), () => this.closed);
      this.collections.set(name, collection);
    }
    for (const index of indexes) collection.ensureIndex(index);
    return collection as unknown as Collection<T>;
  }

  /** Every write was acknowledged under the client's write concern: nothing is held back. */
  async sync(): Promise<void> {}

  /** A deleted document is gone from its collection at once: no log of ours to rewrite. */
  async compact(_collections?: readonly string[]): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }
}

type Doc = Document & WithId;

class MongoCollection implements Collection<Doc> {
  private readonly declared = new Set<string>();
  /** Declared indexes not created yet: each operation tries them first, until they exist. */
  private readonly pending = new Map<string, IndexSpec>();
  private creating: Promise<void> | null = null;

  constructor(
    private readonly name: string,
    private readonly col: DriverCollection<Doc>,
    private readonly isClosed: () => boolean,
  ) {}

  ensureIndex(spec: IndexSpec): void {
    const id = JSON.stringify([spec.keys, !!spec.unique]);
    if (this.declared.has(id)) return;
    this.declared.add(id);
    this.pending.set(id, spec);
    // Started now; a failure surfaces on the next operation, which tries again.
    this.createPending().catch(() => undefined);
  }

  /** Creates the pending indexes (retried a few times); what still fails is tried by the next call. */
  private createPending(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    this.creating ??= (async () => {
      try {
        for (const [id, spec] of [...this.pending]) {
          await withRetries(() => this.col.createIndex(spec.keys, { unique: !!spec.unique }), 3, 200);
          this.pending.delete(id);
        }
      } finally {
        this.creating = null;
      }
    })();
    return this.creating;
  }

  insertOne(doc: Doc): Promise<void> {
    return this.run(async () => {
      await this.col.insertOne({ ...doc });
    });
  }

  insertMany(docs: Doc[]): Promise<void> {
    return this.run(async () => {
      if (docs.length > 0)
        await this.col.insertMany(
          docs.map((doc) => ({ ...doc })),
          { ordered: true },
        );
    });
  }

  findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<Doc | null> {
    return this.run(() => this.col.findOne(filter as DriverFilter<Doc>, options.sort ? { sort: options.sort } : {}));
  }

  find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    return this.run(() => {
      let cursor = this.col.find(filter as DriverFilter<Doc>);
      if (options.sort && Object.keys(options.sort).length > 0) cursor = cursor.sort(options.sort);
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit) cursor = cursor.limit(options.limit);
      return cursor.toArray();
    });
  }

  count(filter: Filter): Promise<number> {
    return this.run(() => this.col.countDocuments(filter as DriverFilter<Doc>));
  }

  updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<{ matched: number; upserted: boolean }> {
    return this.run(async () => {
      const upsert = options.upsert ?? false;
      const result = await this.col.updateOne(filter as DriverFilter<Doc>, withUpsertId(filter, update, upsert), { upsert });
      return { matched: result.matchedCount, upserted: result.upsertedCount > 0 };
    });
  }

  updateMany(filter: Filter, update: Update): Promise<{ matched: number }> {
    return this.run(async () => {
      const result = await this.col.updateMany(filter as DriverFilter<Doc>, update as UpdateFilter<Doc>);
      return { matched: result.matchedCount };
    });
  }

  findOneAndUpdate(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<Doc | null> {
    return this.run(() => {
      const upsert = options.upsert ?? false;
      return this.col.findOneAndUpdate(filter as DriverFilter<Doc>, withUpsertId(filter, update, upsert), {
        upsert,
        returnDocument: 'after',
        includeResultMetadata: false,
      });
    });
  }

  replaceOne(filter: Filter, doc: Doc, options: { upsert?: boolean } = {}): Promise<{ matched: number }> {
    return this.run(async () => {
      const result = await this.col.replaceOne(filter as DriverFilter<Doc>, { ...doc }, { upsert: options.upsert ?? false });
      return { matched: result.matchedCount };
    });
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.run(async () => (await this.col.deleteOne(filter as DriverFilter<Doc>)).deletedCount);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.run(async () => (await this.col.deleteMany(filter as DriverFilter<Doc>)).deletedCount);
  }

  private async run<R>(operation: () => Promise<R>): Promise<R> {
    if (this.isClosed()) throw new Error(`collection ${this.name} is closed`);
    await this.createPending();
    try {
      return await operation();
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) {
        const keyPattern = (error as MongoServerError & { keyPattern?: Record<string, unknown> }).keyPattern;
        throw new DuplicateKeyError(this.name, Object.keys(keyPattern ?? { _id: 1 }));
      }
      throw error;
    }
  }
}

/**
 * Ids here are strings. An upsert whose filter and update name no _id would get an ObjectId from
 * MongoDB, so it gets a UUID (as the embedded store gives) through $setOnInsert.
 */
const withUpsertId = (filter: Filter, update: Update, upsert: boolean): UpdateFilter<Doc> => {
  if (!upsert || hasIdEquality(filter)) return update as UpdateFilter<Doc>;
  const setsId = ['$set', '$setOnInsert'].some((op) => {
    const fields = (update as Record<string, unknown>)[op];
    return typeof fields === 'object' && fields !== null && '_id' in fields;
  });
  if (setsId) return update as UpdateFilter<Doc>;
  const setOnInsert = ((update as Record<string, unknown>).$setOnInsert ?? {}) as Record<string, unknown>;
  return { ...update, $setOnInsert: { ...setOnInsert, _id: randomUUID() } } as UpdateFilter<Doc>;
};

const hasIdEquality = (filter: Filter): boolean => {
  const id = filter._id;
  if (id !== undefined && (typeof id !== 'object' || id === null || Array.isArray(id) || '$eq' in id)) return true;
  const and = filter.$and;
  return Array.isArray(and) && and.some((clause) => hasIdEquality(clause as Filter));
};
