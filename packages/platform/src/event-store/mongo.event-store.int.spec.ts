import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describe } from 'vitest';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { MongoEventStore } from './mongo.event-store';

const url = process.env.MONGODB_URL;

// MongoDB does not run in this workplace: the suite runs wherever MONGODB_URL points at one
// (a replica set, for the multi-event transactions).
describe.runIf(!!url)('MongoEventStore (runs only when MONGODB_URL is set)', () => {
  describeEventStoreContract('MongoDB', async () => {
    const dbName = `palaver_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    return {
      open: () => MongoEventStore.connect(url!, dbName),
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
