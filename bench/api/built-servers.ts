import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { workspaceSources } from '../../scripts/esbuild-workspace.mjs';

/** The servers the bench runs as built (the cluster's services run from their sources, as `pnpm start:cluster` does). */
const SERVERS = ['product.server.ts', 'baseline.server.ts', 'bus-floor.server.ts'];
let builtDir: string | null = null;

/**
 * Builds the bench's servers as `pnpm build` builds the services the containers run, so they run
 * as plain JavaScript rather than through tsx's loader (whose transform names every closure and
 * leaves the workspace as separate modules). The build is removed when the bench exits.
 */
export const buildServers = async (): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'palaver-bench-build-'));
  await build({
    entryPoints: Object.fromEntries(SERVERS.map((script) => [script.replace(/\.ts$/, ''), join(import.meta.dirname, script)])),
    outdir: dir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    plugins: [workspaceSources(join(import.meta.dirname, '..', '..'), { externals: 'absolute' })],
    logLevel: 'warning',
  });
  builtDir = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
};

/** The built file of a bench server once `buildServers` has run, else null (it runs from its source). */
export const builtServer = (script: string): string | null =>
  builtDir !== null && SERVERS.includes(script) ? join(builtDir, script.replace(/\.ts$/, '.js')) : null;
