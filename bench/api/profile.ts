import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child';
import { cpuProbe } from './cpu';
import { load } from './load';
import { messagesRequest, prepareProduct } from './product.setup';
import { type Attribution, attribute, type CpuProfile, type SourceOf } from './profile-attribution';

export interface ProfileResult {
  messagesPerSecond: number;
  /** The product's main thread's CPU per message over the profiled run (the profiler's own cost included). */
  mainThreadMsPerMessage: number | undefined;
  /** Each process's CPU per message over the same run: the product's, the load generator's, the servers'. */
  cpuMsPerMessage: Record<string, number> | undefined;
  attribution: Attribution;
  /** The `.cpuprofile` kept for Chrome DevTools or VS Code. */
  path: string;
}

const OUR_SOURCE = /(?:^|\/)((?:packages|services|bench)\/.*)$/;

/**
 * Our files' paths (`packages/platform/src/…`) from a frame's URL: through the bundle's source map
 * when the product runs built (built-servers.ts), else the URL's own path; third-party code
 * (under node_modules) and Node's own are not ours.
 */
export const sourceResolver = (): SourceOf => {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (path: string): SourceMap | null => {
    let map = maps.get(path);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(path, map);
    }
    return map;
  };
  return (url, lineNumber, columnNumber) => {
    if (!url.startsWith('file://')) return null;
    const path = fileURLToPath(url);
    if (path.includes('/node_modules/')) return null;
    const map = mapOf(path);
    const source = map ? (map.findEntry(lineNumber, columnNumber) as { originalSource?: string }).originalSource : path;
    if (!source || source.includes('/node_modules/')) return null;
    return OUR_SOURCE.exec(source)?.[1] ?? null;
  };
};

/**
 * The messages scenario (`writers` conversations in parallel) against the product with its main
 * thread profiled over the counted run (and until it is idle again), as the CPU figures are taken.
 */
export const profileMessages = async (
  mode: string,
  env: Record<string, string>,
  servers: Record<string, number>,
  writers: number,
  durationSeconds: number,
  warmUpSeconds = 20,
): Promise<ProfileResult> => {
  const product = await startChild('product.server.ts', {
    ...env,
    PORT: '0',
    SEED_DEMO: 'false',
    ADMIN_TOKEN: `adm_profile_${Date.now()}`,
  });
  const path = join(tmpdir(), `palaver-bench-${mode}-messages-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  try {
    const fixture = await prepareProduct(product.url, product.ready.adminToken as string, writers);
    const messages = { url: product.url, ...messagesRequest(fixture.writer) };
    // A product just started spends its first seconds compiling: the bench's table measures its
    // messages after the reads and inits, and the profile after as long a warm-up.
    await load({ ...messages, durationSeconds: warmUpSeconds });
    const result = await load({
      ...messages,
      durationSeconds,
      cpu: cpuProbe({ product: product.process.pid! }, servers),
      counted: {
        start: () => product.ask('profile-start', 'profiling'),
        stop: () => product.ask('profile-stop', 'profiled', { path }),
      },
    });
    const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
    return {
      messagesPerSecond: result.rps,
      mainThreadMsPerMessage: result.mainThreadMsPerRequest?.product,
      cpuMsPerMessage: result.cpuMsPerRequest,
      attribution: attribute(profile, sourceResolver()),
      path,
    };
  } finally {
    await product.stop();
  }
};
