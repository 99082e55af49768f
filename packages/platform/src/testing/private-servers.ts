import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A NATS or Redis server of a test's own, on a free port, that the test may stop and start
 * again on the same port and data folder (a fault test must never stop the shared ones).
 */
export interface PrivateServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  readonly pid: number | undefined;
  /** Starts it again after `stop`, on the same port and folder. */
  start(): Promise<void>;
  /** SIGTERM (Redis writes its append-only file), then waits for the exit. */
  stop(): Promise<void>;
  /** Stops it and deletes its folder. */
  dispose(): Promise<void>;
}

export const NATS_SERVER_BIN = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(existsSync);
export const REDIS_SERVER_BIN = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server'].find(existsSync);

/** Whether both server binaries are installed; when not, under REQUIRE_INFRA=1 this throws. */
export const privateServersAvailable = (): boolean => {
  const ok = NATS_SERVER_BIN !== undefined && REDIS_SERVER_BIN !== undefined;
  if (!ok && process.env.REQUIRE_INFRA === '1') throw new Error('nats-server or redis-server is not installed and REQUIRE_INFRA=1');
  return ok;
};

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/** A JetStream-enabled nats-server; its stream store survives a stop. */
export const startPrivateNats = (): Promise<PrivateServer> =>
  privateServer('nats', (port, dir) => [NATS_SERVER_BIN!, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir]]);

/**
 * A redis-server persisting as production should (an append-only file, noeviction), so that a
 * restart keeps what it acknowledged: fsynced on every write by default, or every second (the
 * other setting docs/deployment.md allows).
 */
export const startPrivateRedis = (appendfsync: 'always' | 'everysec' = 'always'): Promise<PrivateServer> =>
  privateServer('redis', (port, dir) => [
    REDIS_SERVER_BIN!,
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      appendfsync,
      '--maxmemory-policy',
      'noeviction',
    ],
  ]);

const privateServer = async (
  scheme: 'nats' | 'redis',
  command: (port: number, dir: string) => [string, string[]],
): Promise<PrivateServer> => {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), `palaver-${scheme}-`));
  let child: ChildProcess | null = null;
  const start = async () => {
    const [bin, args] = command(port, dir);
    const started = spawn(bin, args, { stdio: 'ignore' });
    child = started;
    await waitForPort(port, started);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => running.kill('SIGKILL'), 10_000);
      running.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return (child as ChildProcess | null)?.pid;
    },
    start,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

const waitForPort = async (port: number, child: ChildProcess): Promise<void> => {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server on port ${port} exited with ${child.exitCode}`);
    if (await connects(port)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server on port ${port} did not listen within 15 s`);
};

const connects = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
