// The esbuild plugin of the two builds of the services: `pnpm build` (scripts/build-services.mjs,
// what the containers run) and the bench's servers (bench/api/servers.ts).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const RESOLVING = Symbol('resolving a third-party import');

/**
 * Bundles the workspace's sources: `@palaver/x` resolves to its package's source entry (its
 * package.json `exports["."]`) under `root`. Third-party packages stay imports of node_modules:
 * as written (`externals: 'bare'`, only for a layout that hoists every package next to the
 * bundle), or as the file they resolve to from their importer, because pnpm's isolated layout
 * installs each package's dependencies beside it and not at the root: its absolute path
 * (`'absolute'`, a bundle run from a temporary folder) or its path relative to `outdir`
 * (`'relative'`, `pnpm build`'s dist/, which keeps running when the checkout moves as a whole,
 * e.g. copied with its node_modules into an image).
 */
export const workspaceSources = (root, { externals = 'bare', outdir } = {}) => ({
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
    // Every other bare import is a node_modules package (or a Node built-in): left as an import.
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@palaver/') || args.pluginData === RESOLVING) return undefined;
      if (externals === 'bare') return { path: args.path, external: true };
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: RESOLVING });
      if (found.errors.length > 0) return { errors: found.errors };
      if (externals === 'relative' && path.isAbsolute(found.path)) {
        const relative = path.relative(outdir, found.path).split(path.sep).join('/');
        return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
      }
      return { path: found.path, external: true };
    });
  },
});
