import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';

/** A database of its own for one test, named at random, and how to drop it afterwards. */
export const mongoTestDatabase = (url: string): { dbName: string; drop: () => Promise<void> } => {
  const dbName = `palaver_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return {
    dbName,
    drop: async () => {
      const client = await MongoClient.connect(url);
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
};
