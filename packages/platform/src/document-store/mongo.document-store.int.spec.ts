import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describe } from 'vitest';
import { describeDocumentStoreContract } from '../testing/document-store.contract';
import { MongoDocumentStore } from './mongo.document-store';

const url = process.env.MONGODB_URL;

// MongoDB does not run in this workplace: the suite runs wherever MONGODB_URL points at one.
describe.runIf(!!url)('MongoDocumentStore (runs only when MONGODB_URL is set)', () => {
  describeDocumentStoreContract('MongoDB', async () => {
    const dbName = `palaver_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    return {
      open: () => MongoDocumentStore.connect(url!, dbName),
      cleanup: async () => {
        const client = await MongoClient.connect(url!);
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
});
