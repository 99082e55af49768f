/**
 * The product for `pnpm bench:api`: the launcher's embedded app (every service and the gateway;
 * NATS, Redis, BullMQ when their URLs are set) answering with the instant model, traced as the
 * launcher's main traces when OTEL_EXPORTER_OTLP_ENDPOINT is set. Over IPC: `ready` with its URL;
 * on request `memory` (after a GC) and `release` (the held replies).
 */
import 'reflect-metadata';
import { startEmbeddedApp } from '@palaver/launcher';
import { createInfrastructure, loadConfig, startTracing } from '@palaver/platform';
import { InstantChatModel } from './instant.chat-model';

const config = loadConfig();
const tracing = await startTracing('embedded');
const model = new InstantChatModel(process.env.BENCH_HOLD_REPLIES === 'true');
const app = await startEmbeddedApp(config, { ...(await createInfrastructure(config)), chatModel: model });

process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'memory') {
    globalThis.gc?.();
    process.send!({ cmd: 'memory', usage: process.memoryUsage() });
  } else if (message.cmd === 'release') {
    model.release();
    process.send!({ cmd: 'released' });
  } else if (message.cmd === 'close') {
    void app
      .close()
      .then(() => tracing?.shutdown())
      .finally(() => process.exit(0));
  }
});
process.send!({ cmd: 'ready', url: app.url, adminToken: app.adminToken });
