// Compiles every process entry point to plain JavaScript in dist/ (one ES module each), so that
// containers run `node dist/<name>.js` instead of compiling TypeScript at start. The workspace
// packages (@palaver/*) are bundled in; third-party packages stay imports of node_modules (the
// image installs them hoisted, so dist/ resolves them). Run with `pnpm build`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { workspaceSources } from './esbuild-workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = {
  gateway: 'services/gateway/src/main.ts',
  identity: 'services/identity/src/main.ts',
  conversation: 'services/conversation/src/main.ts',
  search: 'services/search/src/main.ts',
  inference: 'services/inference/src/main.ts',
  analytics: 'services/analytics/src/main.ts',
  embedded: 'packages/launcher/src/main.ts',
  seed: 'packages/launcher/src/seed.main.ts',
  healthcheck: 'packages/launcher/src/healthcheck.main.ts',
};

await build({
  entryPoints: entries,
  outdir: path.join(root, 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  plugins: [workspaceSources(root)],
  logLevel: 'info',
});
