import { describe } from 'vitest';
import { describeKeyStoreContract } from '../testing/key-store.contract';
import { mongoTestDatabase } from '../testing/mongo-test-database';
import { MongoKeyStore } from './mongo.key-store';

const url = process.env.MONGODB_URL;

// MongoDB does not run in this workplace: the suite runs wherever MONGODB_URL points at one.
describe.runIf(!!url)('MongoKeyStore (runs only when MONGODB_URL is set)', () => {
  describeKeyStoreContract('MongoDB', async () => {
    const { dbName, drop } = mongoTestDatabase(url!);
    return { open: () => MongoKeyStore.connect(url!, dbName), cleanup: drop };
  });
});
