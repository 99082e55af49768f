// Compiles every process entry point to plain JavaScript in dist/ (one ES module each), so that
// `node dist/<name>.js` runs it without compiling TypeScript at start (the containers, or a checkout
// after `pnpm install && pnpm build`). The workspace packages (@palaver/*) are bundled in;
// third-party packages stay imports of node_modules, each written as the path of the file it
// resolves to (relative to dist/): pnpm's isolated layout keeps most of them out of the root's
// node_modules, and a few are native or optional (loaded only when configured), which a bundle
// cannot hold. Run with `pnpm build` (`-- --outdir <dir>` builds elsewhere, as the build's test does).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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

const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = path.resolve(values.outdir ?? path.join(root, 'dist'));
await build({
  entryPoints: entries,
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  plugins: [workspaceSources(root, { externals: 'relative', outdir })],
  logLevel: 'info',
});
