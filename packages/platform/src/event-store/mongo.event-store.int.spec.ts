import { describe } from 'vitest';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { mongoTestDatabase } from '../testing/mongo-test-database';
import { MongoEventStore } from './mongo.event-store';

const url = process.env.MONGODB_URL;

// MongoDB does not run in this workplace: the suite runs wherever MONGODB_URL points at one
// (a replica set, for the multi-event transactions).
describe.runIf(!!url)('MongoEventStore (runs only when MONGODB_URL is set)', () => {
  describeEventStoreContract('MongoDB', async () => {
    const { dbName, drop } = mongoTestDatabase(url!);
    return { open: () => MongoEventStore.connect(url!, dbName), cleanup: drop };
  });
});
