// Compiles every process entry point to plain JavaScript in dist/ (one ES module each), so that
// containers run `node dist/<name>.js` instead of compiling TypeScript at start. The workspace
// packages (@palaver/*) are bundled in; third-party packages stay imports of node_modules (the
// image installs them hoisted, so dist/ resolves them). Run with `pnpm build`.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

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

/** @palaver/x resolves to its package's source entry (its package.json `exports["."]`). */
const workspaceSources = {
  name: 'workspace-sources',
  setup(b) {
    b.onResolve({ filter: /^@palaver\// }, (args) => {
      for (const group of ['packages', 'services']) {
        const dir = path.join(root, group, args.path.slice('@palaver/'.length));
        const manifest = path.join(dir, 'package.json');
        if (!existsSync(manifest)) continue;
        const { exports } = JSON.parse(readFileSync(manifest, 'utf8'));
        const entry = typeof exports === 'string' ? exports : exports['.'];
        return { path: path.join(dir, entry) };
      }
      return undefined;
    });
    // A module that finds files next to itself (import.meta.url) keeps its own location once
    // bundled: the image builds and runs in the same folder (/app).
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const url = JSON.stringify(pathToFileURL(args.path).href);
      const contents = source
        .replaceAll('import.meta.url', url)
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts', resolveDir: path.dirname(args.path) };
    });
    // Every other bare import is a node_modules package: left as an import.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@palaver/') ? undefined : { path: args.path, external: true }));
  },
};

await build({
  entryPoints: entries,
  outdir: path.join(root, 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  plugins: [workspaceSources],
  logLevel: 'info',
});
