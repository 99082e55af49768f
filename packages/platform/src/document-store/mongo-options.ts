import type { MongoClientOptions } from 'mongodb';

/**
 * Bounds on every MongoDB call, so that an unreachable server or an election without a primary
 * fails an operation in seconds instead of hanging it (the driver waits 30 s to pick a server and
 * forever on a silent socket by default).
 */
export const mongoClientOptions: MongoClientOptions = {
  ignoreUndefined: true,
  serverSelectionTimeoutMS: 10_000,
  connectTimeoutMS: 10_000,
  socketTimeoutMS: 60_000,
  retryWrites: true,
  retryReads: true,
};

/**
 * Runs `create` until it succeeds, with a doubling delay: index creation fails while a replica set
 * elects its primary, and must not leave the store without its indexes until a restart.
 */
export const withRetries = async <T>(create: () => Promise<T>, tries = 6, firstDelayMs = 500): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (attempt >= tries) throw error;
      await new Promise((r) => setTimeout(r, firstDelayMs * 2 ** (attempt - 1)));
    }
  }
};
