/**
 * The product for `pnpm bench:api`, answering with the instant model: the launcher's embedded app
 * (every service and the gateway; NATS, Redis, BullMQ when their URLs are set), traced as the
 * launcher's main traces when OTEL_EXPORTER_OTLP_ENDPOINT is set; or, with BENCH_CLUSTER, every
 * service in a process of its own as `pnpm start:cluster` runs them (one gateway, one inference
 * worker), on the bench's NATS and Redis, its `ready` naming each service's pid for the CPU
 * figures. Over IPC: `ready` with its URL; on request `memory` (after a GC) and `release` (the
 * held replies).
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { startEmbeddedApp } from '@palaver/launcher';
import { createInfrastructure, loadConfig, startTracing } from '@palaver/platform';
import { Cluster } from '../../packages/launcher/src/cluster/cluster';
import { InstantChatModel } from './instant.chat-model';

const model = new InstantChatModel(process.env.BENCH_HOLD_REPLIES === 'true');

const startEmbedded = async () => {
  const config = loadConfig();
  const tracing = await startTracing('embedded');
  const app = await startEmbeddedApp(config, { ...(await createInfrastructure(config)), chatModel: model });
  const close = () => app.close().then(() => tracing?.shutdown());
  return { ready: { url: app.url, adminToken: app.adminToken }, close };
};

const startCluster = async () => {
  const { ADMIN_TOKEN: adminToken, DATA_DIR, NATS_URL, REDIS_URL } = process.env;
  const cluster = new Cluster({
    root: join(import.meta.dirname, '..', '..'),
    dataDir: DATA_DIR!,
    natsUrl: NATS_URL!,
    redisUrl: REDIS_URL!,
    gateways: 1,
    workers: 1,
    port: 0,
    host: '127.0.0.1',
    adminToken: adminToken!,
    env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    log: (line) => process.stderr.write(`${line}\n`),
    entries: { inference: join(import.meta.dirname, 'inference.instant.main.ts') },
  });
  await cluster.start();
  const pids = Object.fromEntries(cluster.processes.map((p) => [p.spec.name, p.pid!]));
  return { ready: { url: cluster.gatewayUrls()[0], adminToken, pids }, close: () => cluster.stop() };
};

const product = process.env.BENCH_CLUSTER === 'true' ? await startCluster() : await startEmbedded();
process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'memory') {
    globalThis.gc?.();
    process.send!({ cmd: 'memory', usage: process.memoryUsage() });
  } else if (message.cmd === 'release') {
    model.release();
    process.send!({ cmd: 'released' });
  } else if (message.cmd === 'close') void product.close().finally(() => process.exit(0));
});
process.send!({ cmd: 'ready', ...product.ready });
