/** MongoDB query language, a subset both adapters run: filters, sorts, update operators. */
export type Filter = Record<string, unknown>;
export type Update = Record<string, unknown>;
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly keys: string[],
  ) {
    super(`duplicate key in ${collection} on ${keys.join(', ')}`);
    this.name = 'DuplicateKeyError';
  }
}

export type WithId = { _id: string };

export interface Collection<T extends WithId> {
  insertOne(doc: T): Promise<void>;
  /**
   * Inserts the documents in order, as one write (one fsync embedded, one round trip to MongoDB),
   * so a reader never sees a later one without the ones before it. A duplicate key (an `_id` or a
   * unique index, also between the documents themselves) throws DuplicateKeyError; the documents
   * before it may then be stored (MongoDB stores them; the embedded store none).
   */
  insertMany(docs: T[]): Promise<void>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Applies the update operators to the first match; with upsert, inserts built from the filter's equalities. */
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<{ matched: number; upserted: boolean }>;
  updateMany(filter: Filter, update: Update): Promise<{ matched: number }>;
  /** Returns the document after the update (or null when nothing matched and no upsert). */
  findOneAndUpdate(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<T | null>;
  replaceOne(filter: Filter, doc: T, options?: { upsert?: boolean }): Promise<{ matched: number }>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
}

export interface CollectionOptions {
  /**
   * `derived`: the collection can be rebuilt from elsewhere (a projection of the event store), so
   * the embedded store answers a write once applied in memory, writes it behind the answer and
   * fsyncs it at the next `sync()`: a crash (of the process or the machine) may take back what was
   * written since the last `sync()` resolved, which the owner redoes. MongoDB applies its write
   * concern either way. Default `acknowledged`: durable when answered.
   */
  durability?: 'acknowledged' | 'derived';
}

export interface DocumentStore {
  /** Indexes are declared with the collection; unique ones are enforced by both adapters. */
  collection<T extends WithId>(name: string, indexes?: IndexSpec[], options?: CollectionOptions): Collection<T>;
  /** Makes every write answered so far durable, those to `derived` collections included. */
  sync(): Promise<void>;
  /**
   * Rewrites what the store keeps on disk of these collections (all when absent) so that it holds
   * only the live documents: once it resolves no deleted or overwritten document's bytes remain in
   * their files (erasure). MongoDB keeps no such history in its collections: there it does nothing.
   */
  compact(collections?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
