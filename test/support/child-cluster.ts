import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PrivateServer, startPrivateNats, startPrivateRedis } from '@palaver/platform/testing';
import { vi } from 'vitest';
import { isAlive } from './child-app';
import { AdminClient } from './e2e-app';
import { useFixture } from './fixture';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ChildCluster {
  /** Every gateway's base URL, the first one first. */
  urls: string[];
  admin: AdminClient;
  publishableKey: string;
  dataDir: string;
  nats: PrivateServer;
  redis: PrivateServer;
  output: string[];
  /** The pid the launcher printed (or last reported on a restart) for `inference-1`, `analytics`... */
  pid(name: string): number;
  /** The port of the health server of `name`'s process (the last one the launcher reported). */
  healthPort(name: string): number;
  /** Resolves with the new pid once the launcher reports `name` restarted after `previousPid`. */
  restarted(name: string, previousPid: number, timeoutMs?: number): Promise<number>;
  /** Ctrl-C: the launcher stops every process; also stops the private servers. */
  stop(): Promise<void>;
}

/**
 * `pnpm start:cluster` as a user runs it (node with tsx's loader, so its pid is the launcher's),
 * on a NATS and a Redis of this test's own (fault tests stop them, never the shared ones).
 */
export const startChildCluster = async (env: Record<string, string> = {}): Promise<ChildCluster> => {
  const nats = await startPrivateNats();
  const redis = await startPrivateRedis();
  const dataDir = await mkdtemp(join(tmpdir(), 'palaver-cluster-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/launcher/src/cluster.main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', NATS_URL: nats.url, REDIS_URL: redis.url, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const text = () => output.join('');

  const cleanUp = async () => {
    await stopLauncher(child);
    await nats.dispose();
    await redis.dispose();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      () => /Try it:/.test(text()),
      180_000,
      () => `cluster did not start:\n${text()}`,
      child,
    );
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const value = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(text())![1]!;
  const urls = [value('API base URL'), ...[...text().matchAll(/Also gateway\s+(\S+)/g)].map((m) => m[1]!)].map((u) =>
    u.replace(/\/v2$/, ''),
  );
  const pid = (name: string): number => {
    const all = [...text().matchAll(new RegExp(`(?:^\\s+${name}\\s+pid (\\d+)|^${name} restarted, pid (\\d+))`, 'gm'))];
    const last = all.at(-1);
    if (!last) throw new Error(`no pid printed for ${name}:\n${text()}`);
    return Number(last[1] ?? last[2]);
  };
  const healthPort = (name: string): number => {
    const all = [
      ...text().matchAll(new RegExp(`(?:^\\s+${name}\\s+pid \\d+|^${name} restarted, pid \\d+).*health http://[^:\\s]+:(\\d+)`, 'gm')),
    ];
    const last = all.at(-1);
    if (!last) throw new Error(`no health port printed for ${name}:\n${text()}`);
    return Number(last[1]);
  };
  return {
    urls,
    admin: new AdminClient(urls[0]!, value('Admin token')),
    publishableKey: value('Publishable key'),
    dataDir,
    nats,
    redis,
    output,
    pid,
    healthPort,
    async restarted(name, previousPid, timeoutMs = 60_000) {
      await waitFor(
        () => pid(name) !== previousPid,
        timeoutMs,
        () => `${name} was not restarted:\n${text()}`,
      );
      return pid(name);
    },
    stop: cleanUp,
  };
};

/**
 * The cluster of a describe block: started before its tests with the variables `env` gives then
 * (it may read the fixtures declared before it), stopped after them.
 */
export const useChildCluster = (env: () => Record<string, string> = () => ({})): ChildCluster =>
  useFixture(
    () => startChildCluster(env()),
    (cluster) => cluster.stop(),
    200_000,
  );

const stopLauncher = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });

/** Polls `done` until it holds; fails at the timeout, or at once when `child` has exited. */
const waitFor = async (done: () => boolean, timeoutMs: number, message: () => string, child?: ChildProcess): Promise<void> => {
  let exited = false;
  await vi.waitFor(
    () => {
      exited = child !== undefined && child.exitCode !== null;
      if (!exited && !done()) throw new Error(message());
    },
    { timeout: timeoutMs, interval: 100 },
  );
  if (exited) throw new Error(message());
};

/** kill -9 of one process, and waits (bounded) until it is really gone. */
export const killHard = async (pid: number): Promise<void> => {
  process.kill(pid, 'SIGKILL');
  await waitFor(
    () => !isAlive(pid),
    5_000,
    () => `process ${pid} still alive after SIGKILL`,
  );
};
