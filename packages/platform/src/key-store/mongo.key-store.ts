import { randomBytes } from 'node:crypto';
import { Binary, type Collection, MongoClient, MongoServerError } from 'mongodb';
import { mongoClientOptions } from '../document-store/mongo-options';
import { DATA_KEY_BYTES, type KeyStore } from './key-store.port';

interface KeyDocument {
  _id: string;
  key: Binary;
}

/** Acknowledged once journaled on a majority: a key answered is a key that survives a failover. */
const DURABLE = { writeConcern: { w: 'majority' as const, j: true } };

/**
 * The key store on MongoDB: one document per key. Concurrent `createOrGet` calls race on one
 * upsert with `$setOnInsert`, so every caller gets the key that won.
 */
export class MongoKeyStore implements KeyStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly keys: Collection<KeyDocument>,
  ) {}

  static async connect(url: string, dbName: string, collectionName = 'data_keys'): Promise<MongoKeyStore> {
    const client = new MongoClient(url, mongoClientOptions);
    await client.connect();
    return new MongoKeyStore(client, client.db(dbName).collection<KeyDocument>(collectionName));
  }

  async createOrGet(keyId: string): Promise<Buffer> {
    const candidate = new Binary(randomBytes(DATA_KEY_BYTES));
    try {
      const doc = await this.keys.findOneAndUpdate(
        { _id: keyId },
        { $setOnInsert: { key: candidate } },
        { upsert: true, returnDocument: 'after', ...DURABLE },
      );
      if (doc) return Buffer.from(doc.key.buffer);
    } catch (error) {
      // Two upserts of a new id at once: one inserts, the other hits the unique _id; it reads the winner.
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
    const winner = await this.get(keyId);
    if (!winner) throw new Error(`key ${keyId} was not stored`);
    return winner;
  }

  async get(keyId: string): Promise<Buffer | null> {
    const doc = await this.keys.findOne({ _id: keyId });
    return doc ? Buffer.from(doc.key.buffer) : null;
  }

  async delete(keyIds: readonly string[]): Promise<void> {
    if (keyIds.length === 0) return;
    await this.keys.deleteMany({ _id: { $in: [...keyIds] } }, DURABLE);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
