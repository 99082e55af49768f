import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGateway } from '@palaver/gateway';
import { createInfrastructure, loadConfig } from '@palaver/platform';
import { infraAvailable, infraUrl } from '@palaver/platform/testing';
import { afterEach, describe } from 'vitest';
import { type E2eApp, startE2eApp, useE2eApp } from './e2e-app';
import { useFixture } from './fixture';
import { ON_NATS_AND_REDIS } from './nats-and-redis';

const redis = await infraAvailable('redis');

/** The pub/sub a gateway's caches follow: embedded, and Redis when reachable. */
const pubsubVariants = [
  { name: 'embedded pub/sub', env: {} as Record<string, string>, run: true },
  {
    name: `Redis pub/sub${redis ? '' : ` (Redis at ${infraUrl('redis')} unreachable: skipped)`}`,
    env: { REDIS_URL: infraUrl('redis') },
    run: redis,
  },
];

export interface SecondGateway {
  url: string;
  /**
   * Holds back what Redis delivers to this gateway's pub/sub for `ms` (a loaded or distant
   * instance); null with the in-process pub/sub, which delivers within the publish.
   */
  lagDeliveries: ((ms: number) => void) | null;
  close(): Promise<void>;
}

/**
 * Another gateway in front of the app's services, with pub/sub and reply log connections of its
 * own (Redis), or the app's in-process ones (there is one process).
 */
export const startSecondGateway = async (e2e: E2eApp, env: Record<string, string>): Promise<SecondGateway> => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-gw2-'));
  const infra = await createInfrastructure(loadConfig({ DATA_DIR: dir, ...env }), { only: ['pubsub', 'replyLog'] });
  const pubsub = env.REDIS_URL ? infra.pubsub : e2e.app.infra.pubsub;
  const replyLog = env.REDIS_URL ? infra.replyLog : e2e.app.infra.replyLog;
  const gateway = await buildGateway({ ...e2e.app.infra, pubsub, replyLog, adminToken: e2e.app.adminToken });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const address = gateway.server.address();
  // The subscriber connection's socket, paused: what Redis sends waits in the kernel's buffer.
  const subscriber = env.REDIS_URL ? (pubsub as unknown as { subscriber: { stream: Socket } }).subscriber : null;
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    lagDeliveries: subscriber
      ? (ms) => {
          subscriber.stream.pause();
          setTimeout(() => subscriber.stream.resume(), ms);
        }
      : null,
    async close() {
      await gateway.close();
      await infra.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

/**
 * For the tests of a describe block: the app on the shared NATS and Redis, and a second gateway
 * in front of its services (with Redis connections of its own); both stopped after them.
 */
export const useTwoGatewaysOnNatsAndRedis = (): { e2e: E2eApp; second: SecondGateway } => {
  const e2e = useE2eApp(ON_NATS_AND_REDIS);
  const second = useFixture(
    () => startSecondGateway(e2e, { REDIS_URL: ON_NATS_AND_REDIS.REDIS_URL }),
    (gateway) => gateway.close(),
  );
  return { e2e, second };
};

/**
 * One suite per pub/sub variant whose tests call `start()` for the app and a second gateway in
 * front of its services (`other`, its URL); both are stopped after each test.
 */
export const describeWithTwoGateways = (
  title: string,
  suite: (
    start: () => Promise<{ e2e: E2eApp; other: string; lagOtherDeliveries: SecondGateway['lagDeliveries'] }>,
    pubsub: { redis: boolean },
  ) => void,
  /** The app's options (a chat model the test drives), asked at each start. */
  appOptions: () => Parameters<typeof startE2eApp>[1] = () => ({}),
): void => {
  for (const variant of pubsubVariants) {
    describe.skipIf(!variant.run)(`${title}, ${variant.name}`, () => {
      let e2e: E2eApp | null = null;
      let second: SecondGateway | null = null;
      afterEach(async () => {
        await second?.close();
        second = null;
        await e2e?.stop();
        e2e = null;
      });
      suite(
        async () => {
          const app = await startE2eApp(variant.env, appOptions());
          e2e = app;
          second = await startSecondGateway(app, variant.env);
          return { e2e: app, other: second.url, lagOtherDeliveries: second.lagDeliveries };
        },
        { redis: 'REDIS_URL' in variant.env },
      );
    });
  }
};
