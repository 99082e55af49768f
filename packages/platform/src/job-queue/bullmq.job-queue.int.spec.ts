import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { describeJobQueueContract } from '../testing/job-queue.contract';
import { BullMqJobQueue } from './bullmq.job-queue';

const available = await infraAvailable('redis');

const deleteKeys = async (pattern: string): Promise<void> => {
  const redis = new Redis(infraUrl('redis'));
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
};

describe.skipIf(!available)(infraSuiteTitle('BullMqJobQueue', 'redis', available), () => {
  describeJobQueueContract('BullMqJobQueue', async () => {
    const prefix = `test-bull-${randomUUID()}`;
    return {
      jobs: new BullMqJobQueue(infraUrl('redis'), { prefix }),
      cleanup: () => deleteKeys(`${prefix}:*`),
    };
  });
});
