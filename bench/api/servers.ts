/** The processes a bench run starts: its own servers, and for a distributed run a NATS and a Redis of its own. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { SERVICE_NODE_FLAGS } from '../../packages/launcher/src/node-flags';
import {
  NATS_SERVER_BIN,
  REDIS_SERVER_BIN,
  startPrivateNats,
  startPrivateRedis,
} from '../../packages/platform/src/testing/private-servers';
import { workspaceSources } from '../../scripts/esbuild-workspace.mjs';

const SERVERS = ['product.server.ts', 'baseline.server.ts', 'bus-floor.server.ts'];
let builtDir: string | null = null;

/**
 * Builds the bench's servers as `pnpm build` builds the services the containers run, so they run
 * as plain JavaScript rather than through tsx's loader (whose transform names every closure and
 * leaves the workspace as separate modules). A cluster's services still run from their sources,
 * as `pnpm start:cluster` runs them. The build is removed when the bench exits.
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

export interface BenchChild {
  url: string;
  ready: Record<string, unknown>;
  process: ChildProcess;
  /** Sends `cmd` (with `args`) and resolves with the child's answer, the message it sends next. */
  ask<T>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Runs a bench server with the services' V8 flags (built, else through tsx) and resolves once it
 * sent `ready`. Its output is shown only when it fails; dying mid-run ends the bench, since every
 * figure after it would mean nothing.
 */
export const startChild = (script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchChild> =>
  new Promise((resolve, reject) => {
    const built = builtServer(script);
    const entry = built === null ? ['--import', 'tsx', join(import.meta.dirname, script)] : [built];
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, ...entry], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const output: string[] = [];
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => output.push(d.toString()));
    // As long as a cluster's supervisor waits for its services (each a process loading its sources through tsx).
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output.join('')}`)), 180_000);
    const onExit = (code: number | null) => reject(new Error(`${script} exited with ${code}:\n${output.join('')}`));
    const onDeath = (code: number | null, signal: string | null) => {
      process.stderr.write(`${script} died (${signal ?? code}):\n${output.join('').slice(-4_000)}\n`);
      process.exit(1);
    };
    child.once('exit', onExit);
    child.once('message', (ready: { url: string }) => {
      clearTimeout(timer);
      child.off('exit', onExit).once('exit', onDeath);
      const ask = async <T>(cmd: string, args: Record<string, unknown> = {}) => {
        const answer = once(child, 'message');
        child.send({ ...args, cmd });
        return (await answer)[0] as T;
      };
      const stop = async () => {
        child.off('exit', onDeath);
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.send({ cmd: 'close' });
        await exited;
        clearTimeout(kill);
      };
      resolve({ url: ready.url, ready, process: child, ask, stop });
    });
  });

/** Where a mode's product runs: its environment, its servers' pids (for the CPU figures), and how to let go. */
export interface BenchInfra {
  env: Record<string, string>;
  servers: Record<string, number>;
  release(): Promise<void>;
}

/**
 * Distributed runs get a NATS and a Redis of their own, so the bench leaves nothing in shared
 * servers and their CPU figures are the run's alone. Redis persists as docs/deployment.md asks.
 */
export const benchInfra = async (mode: string): Promise<BenchInfra | null> => {
  if (mode === 'embedded') return { env: {}, servers: {}, release: async () => {} };
  if (!NATS_SERVER_BIN || !REDIS_SERVER_BIN) {
    console.error(`${mode}: needs nats-server and redis-server installed: skipped`);
    return null;
  }
  const [nats, redis] = await Promise.all([startPrivateNats(), startPrivateRedis('everysec')]);
  return {
    env: { NATS_URL: nats.url, REDIS_URL: redis.url },
    servers: { nats: nats.pid!, redis: redis.pid! },
    release: async () => void (await Promise.all([nats.dispose(), redis.dispose()])),
  };
};
