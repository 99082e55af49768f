import { infraAvailable, infraUrl } from '../../packages/platform/src/testing/infra';
import {
  NATS_SERVER_BIN,
  REDIS_SERVER_BIN,
  startPrivateNats,
  startPrivateRedis,
} from '../../packages/platform/src/testing/private-servers';
import { scheduleAsBatch } from './batch-scheduling';
import { localServerPid } from './cpu';
import { holdInfraLock } from './infra-lock';

/** Where a mode's product runs: its environment, the pids of its servers (for the CPU figures), and how to let go. */
export interface BenchInfra {
  env: Record<string, string>;
  servers: Record<string, number>;
  /** Whether the servers are the bench's own (nothing it leaves in them outlives the run). */
  ownServers: boolean;
  /** How the bench's own servers are scheduled (printed with the table). */
  scheduling?: string;
  release(): Promise<void>;
}

/**
 * Distributed runs get a NATS (JetStream) and a Redis of their own, on free ports, when the
 * server binaries are installed: the bench then leaves nothing behind (a JetStream backlog in a
 * shared durable consumer, queues in a shared Redis) and its CPU figures are those servers'
 * alone. Redis persists as docs/deployment.md asks (append-only file, fsynced every second).
 * They run under SCHED_BATCH (see scheduleAsBatch) unless `preemptingServers`. Otherwise it uses
 * the shared servers, as they are, under the shared-infrastructure lock.
 */
export const benchInfra = async (mode: string, { preemptingServers = false } = {}): Promise<BenchInfra | null> => {
  if (mode === 'embedded') return { env: {}, servers: {}, ownServers: true, release: async () => {} };
  if (NATS_SERVER_BIN && REDIS_SERVER_BIN) {
    const nats = await startPrivateNats();
    const redis = await startPrivateRedis('everysec');
    const batch = !preemptingServers && scheduleAsBatch(nats.pid!) && scheduleAsBatch(redis.pid!);
    return {
      env: { NATS_URL: nats.url, REDIS_URL: redis.url },
      servers: { nats: nats.pid!, redis: redis.pid! },
      ownServers: true,
      scheduling: batch ? 'the NATS and Redis servers under SCHED_BATCH' : 'the NATS and Redis servers preempting on wake-up',
      release: async () => {
        await Promise.all([nats.dispose(), redis.dispose()]);
      },
    };
  }
  if (!((await infraAvailable('nats')) && (await infraAvailable('redis')))) {
    console.error('distributed: no nats-server and redis-server to start, and the shared ones are unreachable: skipped');
    return null;
  }
  process.stderr.write('distributed: waiting for the shared-infrastructure lock\n');
  const unlock = await holdInfraLock();
  const servers: Record<string, number> = {};
  for (const [name, binary] of [
    ['nats', 'nats-server'],
    ['redis', 'redis-server'],
  ] as const) {
    const pid = localServerPid(binary);
    if (pid !== null) servers[name] = pid;
  }
  return {
    env: { NATS_URL: infraUrl('nats'), REDIS_URL: infraUrl('redis') },
    servers,
    ownServers: false,
    release: async () => unlock(),
  };
};
