import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ConversationMessages } from '@palaver/contracts';
import { FakeOpenAiServer, type PrivateServer, privateServersAvailable } from '@palaver/platform/testing';
import { connect } from 'nats';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { isAlive } from './support/child-app';
import { killHard, useChildCluster } from './support/child-cluster';
import { type HttpResult, http, newVisitor } from './support/e2e-app';
import { useFixture } from './support/fixture';

const available = privateServersAvailable();
const ROOT = join(import.meta.dirname, '..');

/** What "fails fast" means here: a dependency that is down answers within this (the service timeout is 30 s). */
const FAST_MS = 3_000;

const timed = async <T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> => {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
};

/** 503 SERVICE_UNAVAILABLE in the error envelope, with a Retry-After, within FAST_MS. */
const expectFastUnavailable = ({ result, ms }: { result: HttpResult; ms: number }, what: string) => {
  expect({ what, status: result.status, code: result.body?.error?.code }).toEqual({ what, status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(ms, `${what} answered after ${ms} ms`).toBeLessThan(FAST_MS);
};

/** `healthcheck <service>` as a container runs it, against one process's own health port. */
const healthcheck = (service: string, healthPort: number): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/launcher/src/healthcheck.main.ts'), service], {
      cwd: ROOT,
      env: { ...process.env, HEALTH_PORT: String(healthPort), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });

/**
 * Listens on `subject` at the NATS at `natsUrl`: `routed` resolves once NATS has routed a message
 * there. A subscription of the test's own hears it along with the service's, so by then the
 * service's copy has been handed to its connection.
 */
const listenOn = async (natsUrl: string, subject: string): Promise<{ routed: Promise<void> }> => {
  const connection = await connect({ servers: natsUrl });
  const subscription = connection.subscribe(subject, { max: 1 });
  await connection.flush();
  const routed = (async () => {
    for await (const _ of subscription) break;
    await connection.close();
  })();
  return { routed };
};

describe.skipIf(!available)(
  `dependencies and processes that fail, in a cluster on a NATS and a Redis of the test's own${available ? '' : ' (nats-server or redis-server not installed: skipped)'}`,
  () => {
    const upstream = useFixture(
      () => FakeOpenAiServer.start(),
      (server) => server.close(),
    );
    const cluster = useChildCluster(() => ({ WORKERS: '3', LOG_LEVEL: 'warn', OPENAI_BASE_URL: upstream.baseURL }));
    const base = () => cluster.urls[0]!;
    let token: string;
    let conversationId: string;
    beforeAll(async () => {
      token = (await newVisitor(base(), cluster.publishableKey)).token;
      conversationId = (await http(`${base()}/v2/conversations`, { body: {}, token })).body.id;
    });

    const postMessage = (content: string) => http(`${base()}/v2/conversations/${conversationId}/messages`, { body: { content }, token });
    const init = () => http(`${base()}/v2/identity/init`, { body: { apiKey: cluster.publishableKey, saVid: `device-${Date.now()}` } });
    const me = () => http(`${base()}/v2/identity/me`, { token });
    /** Bounded wait for the real recovery: a message is accepted again. */
    const recovered = (withinMs: number) =>
      vi.waitFor(
        async () => {
          const { status } = await postMessage('are you back?').catch(() => ({ status: 0 }));
          expect(status, `a message accepted within ${withinMs} ms after the outage`).toBe(200);
        },
        { timeout: withinMs, interval: 250 },
      );

    it('each process reports its own health: of three inference workers, the stopped one fails its check, the others pass', async () => {
      const names = ['inference-1', 'inference-2', 'inference-3'];
      const ports = names.map((name) => cluster.healthPort(name));
      /** The process's own readiness, as a probe asks it: the status, or 0 when it does not answer within 2 s. */
      const probe = async (port: number) =>
        timed(async () => {
          const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
          return response?.status ?? 0;
        });
      expect((await Promise.all(ports.map(probe))).map((p) => p.result)).toEqual([200, 200, 200]);

      const stopped = cluster.pid('inference-2');
      process.kill(stopped, 'SIGSTOP');
      try {
        const probes = await Promise.all(ports.map(probe));
        expect(probes.map((p) => p.result)).toEqual([200, 0, 200]);
        for (const p of probes) expect(p.ms).toBeLessThan(FAST_MS);
        // The container health check, run against each process's own port: the stopped one fails,
        // every time (it never lands on another instance), the others pass.
        const checks = await Promise.all(ports.map((port) => healthcheck('inference', port)));
        expect(checks.map((c) => c.code)).toEqual([0, 1, 0]);
        expect((await healthcheck('inference', ports[1]!)).code).toBe(1);
      } finally {
        process.kill(stopped, 'SIGCONT');
      }
      expect((await healthcheck('inference', ports[1]!)).code).toBe(0);
    }, 120_000);

    it('kill -9 of the conversation service with a request in flight: the request ends well under the 30 s service timeout', async () => {
      const pid = cluster.pid('conversation');
      // Stopped first, so that the request is surely delivered to this process, and lost with it.
      process.kill(pid, 'SIGSTOP');
      const { routed } = await listenOn(cluster.nats.url, ConversationMessages.list.subject);
      const inFlight = timed(() => http(`${base()}/v2/conversations`, { token }));
      await routed;
      await killHard(pid);
      expect(isAlive(pid)).toBe(false);
      const { result, ms } = await inFlight;
      // Retried on the new instance (a query), or 503 at once when none is there yet.
      expect([200, 503]).toContain(result.status);
      if (result.status === 503) expect(result.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(ms).toBeLessThan(10_000);
      await cluster.restarted('conversation', pid);
      await recovered(30_000);
    }, 90_000);

    /**
     * With traffic flowing, `server` (named `name`) stops: a message and an init answer 503 at once,
     * and so does what `alsoWhileDown` checks; once it is back, traffic recovers by itself.
     */
    const whileDown = async (server: PrivateServer, name: string, alsoWhileDown: () => Promise<void>) => {
      await recovered(30_000);
      await server.stop();
      try {
        expectFastUnavailable(await timed(() => postMessage(`while ${name} is down`)), 'message');
        expectFastUnavailable(await timed(init), 'init');
        await alsoWhileDown();
      } finally {
        await server.start();
      }
      await recovered(30_000);
      expect((await me()).status).toBe(200);
    };

    it('NATS down: message, init and /me answer 503 SERVICE_UNAVAILABLE with Retry-After at once; traffic recovers by itself', async () => {
      await whileDown(cluster.nats, 'NATS', async () => {
        expectFastUnavailable(await timed(me), '/me');
        // The gateway's own probes: alive (no restart for a dependency's outage), not ready (no traffic).
        expect((await http(`${base()}/livez`)).status).toBe(200);
        const readiness = await http(`${base()}/readyz`);
        expect({ status: readiness.status, down: readiness.body.down }).toEqual({ status: 503, down: ['nats'] });
        // Sent while down, answered before NATS returns: never held until it does.
        const sentWhileDown = timed(() => postMessage('just before NATS returns'));
        expectFastUnavailable(await sentWhileDown, 'message sent while down');
      });
      expect((await http(`${base()}/readyz`)).body).toEqual({ status: 'ok', down: [] });
    }, 90_000);

    it('Redis down: message and init answer 503 SERVICE_UNAVAILABLE with Retry-After at once (never 500, never held); traffic recovers by itself', async () => {
      await whileDown(cluster.redis, 'Redis', async () => {
        // The session and the visitor are not in Redis (the gateway caches the session): served, or refused at once.
        const visitor = await timed(me);
        expect([200, 503]).toContain(visitor.result.status);
        expect(visitor.ms).toBeLessThan(FAST_MS);
      });
    }, 90_000);
  },
);
