import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { resolveAdminToken } from '@palaver/gateway';
import { createInfrastructure, loadConfig } from '@palaver/platform';
import { z } from 'zod';
import { banner } from './banner';
import { Cluster } from './cluster/cluster';
import { seedDemo } from './demo.seed';

/**
 * `pnpm start:cluster`: every service as its own process on NATS and Redis (the local ones unless
 * NATS_URL/REDIS_URL say otherwise), GATEWAYS gateways and WORKERS inference workers; seeds the
 * demo project as `pnpm start` does. Ctrl-C stops every process.
 */
const ClusterEnv = z.object({
  GATEWAYS: z.coerce.number().int().min(1).max(16).default(1),
  WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  NATS_URL: z.string().url().default('nats://127.0.0.1:4222'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  DATA_DIR: z.string().default('./data/cluster'),
});

const parsed = ClusterEnv.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')));
if (!parsed.success) {
  console.error(`invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  process.exit(2);
}
const env = parsed.data;
const config = loadConfig({ ...process.env, NATS_URL: env.NATS_URL, REDIS_URL: env.REDIS_URL, DATA_DIR: env.DATA_DIR });
const dataDir = resolve(config.DATA_DIR);
const admin = await resolveAdminToken(config.ADMIN_TOKEN, dataDir);

const cluster = new Cluster({
  root: resolve(import.meta.dirname, '..', '..', '..'),
  dataDir,
  natsUrl: env.NATS_URL,
  redisUrl: env.REDIS_URL,
  gateways: env.GATEWAYS,
  workers: env.WORKERS,
  port: config.PORT,
  host: config.HOST,
  adminToken: admin.token,
  env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
  log: (line) => console.log(line),
});

let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  console.log('stopping the cluster');
  await cluster.stop();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await cluster.start();
} catch (error) {
  console.error(`the cluster did not start: ${(error as Error).message}`);
  await shutdown(1);
}

// The demo project, created through the services like any admin call.
const seeding = await createInfrastructure(config, { only: [] });
const demo = config.SEED_DEMO === 'true' ? await seedDemo(seeding.services, dataDir) : null;
await seeding.close();

const [url, ...otherGateways] = cluster.gatewayUrls();
console.log(
  banner({
    title: `Palaver is running (cluster: ${env.GATEWAYS} gateway(s), ${env.WORKERS} inference worker(s), NATS ${env.NATS_URL}, Redis ${env.REDIS_URL}, data in ${config.DATA_DIR})`,
    url: url!,
    adminToken: admin.token,
    adminTokenGenerated: admin.generated,
    demo,
    extra: [
      ...otherGateways.map((other) => `  Also gateway     ${other}/v2`),
      '  Processes',
      ...cluster.processes.map(
        (p) =>
          `    ${p.spec.name.padEnd(14)} pid ${p.pid}   data ${join(config.DATA_DIR, p.spec.name)}${p.ready?.health ? `   health ${p.ready.health}` : ''}`,
      ),
    ],
  }),
);
