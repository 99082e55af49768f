import 'reflect-metadata';
import { loadConfig } from '@palaver/platform';
import { startEmbeddedApp } from './embedded.app';

const config = loadConfig();
const app = await startEmbeddedApp(config);

const lines = [
  '',
  `Palaver is running (embedded mode, data in ${config.DATA_DIR})`,
  `  API base URL     ${app.url}/v2`,
  `  Health           ${app.url}/healthz`,
  `  Admin API        ${app.url}/admin/v1   (Authorization: Bearer <admin token>)`,
  `  Admin token      ${app.adminToken}${app.adminTokenGenerated ? '   (generated, saved in DATA_DIR/admin-token)' : ''}`,
];
if (app.demo) {
  lines.push(
    `  Demo project     ${app.demo.projectId}`,
    `  Publishable key  ${app.demo.publishableKey}`,
    `  Private key      ${app.demo.privateKey}`,
    `  Widget demo      ${app.url}/demo`,
    '',
    'Try it:',
    `  curl -s -X POST ${app.url}/v2/identity/init -H 'content-type: application/json' \\`,
    `    -d '{"apiKey":"${app.demo.publishableKey}","saVid":"device-1"}'`,
  );
}
console.log(`${lines.join('\n')}\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await app.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
