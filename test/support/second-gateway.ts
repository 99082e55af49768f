import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGateway } from '@palaver/gateway';
import { createInfrastructure, infraAvailable, infraUrl, loadConfig } from '@palaver/platform';
import type { E2eApp } from './e2e-app';

const redis = await infraAvailable('redis');

/** The pub/sub a gateway's caches follow: embedded, and Redis when reachable. */
export const pubsubVariants = [
  { name: 'embedded pub/sub', env: {} as Record<string, string>, run: true },
  {
    name: `Redis pub/sub${redis ? '' : ` (Redis at ${infraUrl('redis')} unreachable: skipped)`}`,
    env: { REDIS_URL: infraUrl('redis') },
    run: redis,
  },
];

export interface SecondGateway {
  url: string;
  close(): Promise<void>;
}

/**
 * Another gateway in front of the app's services, with a pub/sub connection of its own (Redis),
 * or the app's in-process one (there is one process).
 */
export const startSecondGateway = async (e2e: E2eApp, env: Record<string, string>): Promise<SecondGateway> => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-gw2-'));
  const infra = await createInfrastructure(loadConfig({ DATA_DIR: dir, ...env }), { only: ['pubsub'] });
  const pubsub = env.REDIS_URL ? infra.pubsub : e2e.app.infra.pubsub;
  const gateway = await buildGateway({ ...e2e.app.infra, pubsub, adminToken: e2e.app.adminToken });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const address = gateway.server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    async close() {
      await gateway.close();
      await infra.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
