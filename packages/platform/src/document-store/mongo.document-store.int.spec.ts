import { describe } from 'vitest';
import { describeDocumentStoreContract } from '../testing/document-store.contract';
import { mongoTestDatabase } from '../testing/mongo-test-database';
import { MongoDocumentStore } from './mongo.document-store';

const url = process.env.MONGODB_URL;

// MongoDB does not run in this workplace: the suite runs wherever MONGODB_URL points at one.
describe.runIf(!!url)('MongoDocumentStore (runs only when MONGODB_URL is set)', () => {
  describeDocumentStoreContract('MongoDB', async () => {
    const { dbName, drop } = mongoTestDatabase(url!);
    return { open: () => MongoDocumentStore.connect(url!, dbName), cleanup: drop };
  });
});
