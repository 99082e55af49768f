import {
  NATS_SERVER_BIN,
  REDIS_SERVER_BIN,
  startPrivateNats,
  startPrivateRedis,
} from '../../packages/platform/src/testing/private-servers';

/** Where a mode's product runs: its environment, its servers' pids (for the CPU figures), and how to let go. */
export interface BenchInfra {
  env: Record<string, string>;
  servers: Record<string, number>;
  release(): Promise<void>;
}

/**
 * Distributed runs get a NATS and a Redis of their own, so the bench leaves nothing in shared
 * servers and their CPU figures are the run's alone. Redis persists as docs/deployment.md asks.
 */
export const benchInfra = async (mode: string): Promise<BenchInfra | null> => {
  if (mode === 'embedded') return { env: {}, servers: {}, release: async () => {} };
  if (!NATS_SERVER_BIN || !REDIS_SERVER_BIN) {
    console.error(`${mode}: needs nats-server and redis-server installed: skipped`);
    return null;
  }
  const [nats, redis] = await Promise.all([startPrivateNats(), startPrivateRedis('everysec')]);
  return {
    env: { NATS_URL: nats.url, REDIS_URL: redis.url },
    servers: { nats: nats.pid!, redis: redis.pid! },
    release: async () => void (await Promise.all([nats.dispose(), redis.dispose()])),
  };
};
