import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Collection, CollectionOptions, DocumentStore, IndexSpec, WithId } from './document-store.port';
import { EmbeddedCollection } from './embedded.collection';

const LOG_SUFFIX = '.jsonl';
const COLLECTION_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

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

  async compact(collections?: readonly string[]): Promise<void> {
    if (this.closed) throw new Error('document store is closed');
    const chosen = [...this.collections].filter(([name]) => !collections || collections.includes(name));
    await Promise.all(chosen.map(([, c]) => c.compact()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.collections.values()].map((c) => c.close()));
  }
}
