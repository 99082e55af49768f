import { AppError } from '@palaver/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullMqJobQueue } from '../job-queue/bullmq.job-queue';
import { RedisKeyValueStore } from '../kv/redis.kv';
import { RedisPubSub } from '../pubsub/redis.pubsub';
import { type PrivateServer, privateServersAvailable, startPrivateRedis } from '../testing/private-servers';

const available = privateServersAvailable();

/** Rejects with 503 SERVICE_UNAVAILABLE (retry hint, naming Redis) within `withinMs`. */
const expectFastUnavailable = async (work: () => Promise<unknown>, withinMs = 1_000) => {
  const started = Date.now();
  const error = await work().then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfter: 1, service: 'redis' } });
  expect(Date.now() - started).toBeLessThan(withinMs);
};

/** How many clients Redis holds now (a blocking command, or a write while writes are paused). */
const heldClients = async (admin: Redis): Promise<number> => Number(/blocked_clients:(\d+)/.exec(await admin.info('clients'))?.[1]);

describe.skipIf(!available)(
  `Redis adapters while Redis is down, on a Redis of the test's own${available ? '' : ' (redis-server not installed: skipped)'}`,
  () => {
    let redis: PrivateServer;
    let kv: RedisKeyValueStore;
    let pubsub: RedisPubSub;
    let jobs: BullMqJobQueue;

    beforeAll(async () => {
      redis = await startPrivateRedis();
      kv = new RedisKeyValueStore(redis.url);
      pubsub = new RedisPubSub(redis.url);
      jobs = new BullMqJobQueue(redis.url);
    });
    afterAll(async () => {
      await Promise.allSettled([kv?.close(), pubsub?.close(), jobs?.close()]);
      await redis?.dispose();
    });

    it('fail at once with SERVICE_UNAVAILABLE (never held, never a MaxRetriesPerRequestError) and work again once it is back', async () => {
      // Used right after construction: they wait for the first connection.
      await kv.set('k', 'v');
      const limiter = kv.rateLimiter({ keyPrefix: 'rl', points: 10, durationSeconds: 60 });
      await limiter.consume('p');
      await pubsub.publish('ch', 1);
      await jobs.enqueue('availability', 'job', {});

      await redis.stop();
      await expectFastUnavailable(() => kv.get('k'));
      await expectFastUnavailable(() => kv.increment('n', 60));
      await expectFastUnavailable(() => limiter.consume('p'));
      await expectFastUnavailable(() => pubsub.publish('ch', 2));
      await expectFastUnavailable(() => jobs.enqueue('availability', 'job', {}));

      await redis.start();
      await expect.poll(() => kv.get('k').catch((err: unknown) => String(err)), { timeout: 15_000, interval: 100 }).toBe('v');
      await expect.poll(() => pubsub.publish('ch', 3).then(() => 'ok', String), { timeout: 15_000, interval: 100 }).toBe('ok');
      await expect
        .poll(() => jobs.enqueue('availability', 'job', {}).then(() => 'ok', String), { timeout: 15_000, interval: 100 })
        .toBe('ok');
      expect((await limiter.consume('p')).consumedPoints).toBe(2);
    }, 60_000);

    it('fails an enqueue whose connection drops while its job is being added, and enqueues again once it is back', async () => {
      await jobs.enqueue('availability', 'job', {});
      const admin = new Redis(redis.url);
      try {
        // Writes wait while paused: the job's commands are in flight when the connection is cut.
        await admin.client('PAUSE', 10_000, 'WRITE');
        const enqueued = jobs.enqueue('availability', 'job', {});
        // Handled at once: the drop below rejects it before the assertion awaits it.
        enqueued.catch(() => undefined);
        await expect.poll(() => heldClients(admin)).toBeGreaterThan(0);
        await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
        await expectFastUnavailable(() => enqueued);
        await admin.client('UNPAUSE');
      } finally {
        admin.disconnect();
      }
      await expect
        .poll(() => jobs.enqueue('availability', 'job', {}).then(() => 'ok', String), { timeout: 15_000, interval: 100 })
        .toBe('ok');
    }, 60_000);
  },
);
