import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { describeKeyValueStoreContract } from '../testing/kv.contract';
import { RedisKeyValueStore } from './redis.kv';

const available = await infraAvailable('redis');

const deleteKeys = async (pattern: string): Promise<number> => {
  const redis = new Redis(infraUrl('redis'));
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    await redis.quit();
  }
};

describe.skipIf(!available)(infraSuiteTitle('RedisKeyValueStore', 'redis', available), () => {
  describeKeyValueStoreContract('RedisKeyValueStore', async () => {
    const keyPrefix = `test:kv:${randomUUID()}:`;
    return {
      kv: new RedisKeyValueStore(infraUrl('redis'), { keyPrefix }),
      elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      cleanup: async () => {
        await deleteKeys(`${keyPrefix}*`);
      },
    };
  });

  it('keeps its keys, the rate limiters included, under its prefix', async () => {
    const keyPrefix = `test:kv:${randomUUID()}:`;
    const kv = new RedisKeyValueStore(infraUrl('redis'), { keyPrefix });
    try {
      await kv.set('session', 'v', 60);
      await kv.rateLimiter({ keyPrefix: 'rl', points: 5, durationSeconds: 60 }).consume('p1');
    } finally {
      await kv.close();
    }
    expect(await deleteKeys(`${keyPrefix}*`)).toBe(2);
  });
});
