import 'reflect-metadata';
import { loadConfig, startTracing } from '@palaver/platform';
import { banner } from './banner';
import { startEmbeddedApp } from './embedded.app';

const config = loadConfig();
const tracing = await startTracing('embedded');
const app = await startEmbeddedApp(config);

console.log(
  banner({
    title: `Palaver is running (embedded mode, data in ${config.DATA_DIR})`,
    url: app.url,
    adminToken: app.adminToken,
    adminTokenGenerated: app.adminTokenGenerated,
    demo: app.demo,
  }),
);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await app.close();
  await tracing?.shutdown();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
