/**
 * The product for `pnpm bench:api --mode cluster`: every service in a process of its own, as
 * `pnpm start:cluster` runs them (one gateway, one inference worker answering with the instant
 * model), on the bench's NATS and Redis. Talks to the bench over IPC as product.server.ts does;
 * `ready` also names each service's pid, for the CPU figures.
 */
import { join } from 'node:path';
import { Cluster } from '../../packages/launcher/src/cluster/cluster';

const adminToken = process.env.ADMIN_TOKEN!;
const cluster = new Cluster({
  root: join(import.meta.dirname, '..', '..'),
  dataDir: process.env.DATA_DIR!,
  natsUrl: process.env.NATS_URL!,
  redisUrl: process.env.REDIS_URL!,
  gateways: 1,
  workers: 1,
  port: 0,
  host: '127.0.0.1',
  adminToken,
  env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
  log: (line) => process.stderr.write(`${line}\n`),
  entries: { inference: join(import.meta.dirname, 'inference.instant.main.ts') },
});
await cluster.start();

process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'close') void cluster.stop().finally(() => process.exit(0));
});
const pids = Object.fromEntries(cluster.processes.map((p) => [p.spec.name, p.pid!]));
process.send!({ cmd: 'ready', url: cluster.gatewayUrls()[0], adminToken, pids });
