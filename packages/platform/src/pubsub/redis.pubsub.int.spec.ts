import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { describePubSubContract } from '../testing/pubsub.contract';
import { RedisPubSub } from './redis.pubsub';

const available = await infraAvailable('redis');

describe.skipIf(!available)(infraSuiteTitle('RedisPubSub', 'redis', available), () => {
  describePubSubContract('RedisPubSub', async () => new RedisPubSub(infraUrl('redis')));

  it('carries messages between instances (processes), each on its own connections', async () => {
    const gateway = new RedisPubSub(infraUrl('redis'));
    const worker = new RedisPubSub(infraUrl('redis'));
    try {
      const channel = `reply.${randomUUID()}`;
      const received: unknown[] = [];
      await gateway.subscribe(channel, (m) => received.push(m));
      await worker.publish(channel, { type: 'text-delta', delta: 'Hel' });
      await worker.publish(channel, { type: 'text-delta', delta: 'lo' });
      await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 3_000, interval: 10 });
      expect(received).toEqual([
        { type: 'text-delta', delta: 'Hel' },
        { type: 'text-delta', delta: 'lo' },
      ]);
    } finally {
      await Promise.all([gateway.close(), worker.close()]);
    }
  });

  it('publishDelivered resolves once every other instance has handed the message to its listeners', async () => {
    const gateways = [new RedisPubSub(infraUrl('redis')), new RedisPubSub(infraUrl('redis'))];
    const identity = new RedisPubSub(infraUrl('redis'));
    try {
      const channel = `changes.${randomUUID()}`;
      const seen: unknown[][] = [[], []];
      await Promise.all(gateways.map((gateway, i) => gateway.subscribe(channel, (m) => seen[i]!.push(m))));
      const delivery = await identity.publishDelivered(channel, { kind: 'key-revoked', keyId: 'k1' }, 3_000);
      // No waiting: both have had it when the call resolves.
      expect(delivery).toEqual({ receivers: 2, confirmed: 2 });
      expect(seen).toEqual([[{ kind: 'key-revoked', keyId: 'k1' }], [{ kind: 'key-revoked', keyId: 'k1' }]]);
    } finally {
      await Promise.all([...gateways, identity].map((p) => p.close()));
    }
  });

  it('publishDelivered gives up on a subscriber that never confirms after its timeout, and says so', async () => {
    const gateway = new RedisPubSub(infraUrl('redis'));
    const identity = new RedisPubSub(infraUrl('redis'));
    // A subscriber that is not a RedisPubSub: it receives the message and never confirms it.
    const silent = new Redis(infraUrl('redis'), { enableReadyCheck: false });
    try {
      const channel = `changes.${randomUUID()}`;
      const seen: unknown[] = [];
      await gateway.subscribe(channel, (m) => seen.push(m));
      await silent.subscribe(channel);
      const started = performance.now();
      const delivery = await identity.publishDelivered(channel, { kind: 'project-changed' }, 1_000);
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
      expect(delivery).toEqual({ receivers: 2, confirmed: 1 });
      expect(seen).toEqual([{ kind: 'project-changed' }]);
    } finally {
      silent.disconnect();
      await Promise.all([gateway.close(), identity.close()]);
    }
  });

  it('a subscription made while the connection is still being set up does not break it', async () => {
    const pubsub = new RedisPubSub(infraUrl('redis'));
    // The subscriber connection itself: SUBSCRIBE may be written between connect and ready, where
    // a ready check (INFO) would then be refused in subscriber mode and tear the connection down.
    const connection = (pubsub as unknown as { subscriber: import('ioredis').Redis }).subscriber;
    const errors: Error[] = [];
    connection.on('error', (err: Error) => errors.push(err));
    const channel = `setup.${randomUUID()}`;
    const received: unknown[] = [];
    try {
      const subscribed = await new Promise<Promise<unknown>>((resolve) =>
        connection.once('connect', () => resolve(pubsub.subscribe(channel, (m) => received.push(m)))),
      );
      await subscribed;
      await pubsub.publish(channel, 'after setup');
      await vi.waitFor(() => expect(received).toEqual(['after setup']), { timeout: 3_000, interval: 10 });
      expect(errors).toEqual([]);
    } finally {
      await pubsub.close();
    }
  });
});
