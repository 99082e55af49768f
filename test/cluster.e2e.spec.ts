import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateServersAvailable } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../packages/launcher/src/node-flags';
import { type ChildCluster, startChildCluster } from './support/child-cluster';
import { http, newVisitor } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

const available = privateServersAvailable();

describe.skipIf(!available)(
  `pnpm start:cluster: every service its own process, two gateways, two inference workers${available ? '' : ' (nats-server or redis-server not installed: skipped)'}`,
  () => {
    let cluster: ChildCluster;
    beforeAll(async () => {
      cluster = await startChildCluster({ GATEWAYS: '2', WORKERS: '2' });
    }, 200_000);
    afterAll(() => cluster?.stop(), 60_000);

    it('seeds the demo project and runs the visitor journey across both gateways', async () => {
      const [one, two] = cluster.urls as [string, string];
      expect(one).not.toBe(two);
      expect((await http(`${two}/healthz`)).body.status).toBe('ok');

      // A session opened on one gateway is valid on the other (sessions live in Redis).
      const { token } = await newVisitor(one, cluster.publishableKey);
      expect((await http(`${two}/v2/identity/me`, { token })).status).toBe(200);
      const conversationId = (await http(`${two}/v2/conversations`, { body: {}, token })).body.id;

      const json = await http(`${one}/v2/conversations/${conversationId}/messages`, {
        body: { content: 'How do I return an item?' },
        token,
      });
      expect(json.status).toBe(200);
      expect(json.body.steps[0].content[0].text.length).toBeGreaterThan(0);

      const streamed = await fetch(`${two}/v2/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: 'What are your opening hours?', stream: true }),
      });
      const parsed = await parseUiMessageStream(await streamed.text());
      expect(parsed.chunks.at(-1)?.type).toBe('finish');
      const assistant = (await http(`${one}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
      expect(assistant.map((m: any) => m.status)).toEqual(['complete', 'complete']);
      expect(assistant.at(-1).parts[0].text).toBe(parsed.text);

      // Analytics (its own process) reads the feedback from JetStream.
      await http(`${two}/v2/messages/${assistant[0].id}/feedback`, { body: { feedback: 'like' }, token });
      const projectId = (await cluster.admin.call('GET', '/projects')).data[0].id;
      const feed: any[] = await vi.waitFor(
        async () => {
          const events = (await cluster.admin.call('GET', `/projects/${projectId}/events?type=feedback`)).data;
          expect(events).not.toHaveLength(0);
          return events;
        },
        { timeout: 15_000, interval: 200 },
      );
      expect(feed.map((e) => e.data.feedback)).toEqual(['like']);
    });

    it("runs every service process with the services' V8 flags (a larger young generation)", () => {
      expect(SERVICE_NODE_FLAGS).toContain('--max-semi-space-size=64');
      for (const name of ['identity', 'conversation', 'search', 'analytics', 'inference-1', 'inference-2', 'gateway-1', 'gateway-2']) {
        const argv = readFileSync(`/proc/${cluster.pid(name)}/cmdline`, 'utf8').split('\0');
        expect(argv, name).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
      }
    });

    it('the container health check exits 0 for a service process that answers (on its own health port) and for the gateway', async () => {
      const root = join(import.meta.dirname, '..');
      const check = (service: string, env: Record<string, string>) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/launcher/src/healthcheck.main.ts'), service], {
            cwd: root,
            env: { ...process.env, LOG_LEVEL: 'warn', NATS_URL: cluster.nats.url, REDIS_URL: cluster.redis.url, ...env },
            stdio: 'ignore',
          });
          child.once('exit', resolve);
        });
      const gatewayPort = new URL(cluster.urls[0]!).port;
      const [identity, gateway, unknown] = await Promise.all([
        check('identity', { HEALTH_PORT: String(cluster.healthPort('identity')) }),
        check('gateway', { PORT: gatewayPort }),
        check('nope', {}),
      ]);
      expect({ identity, gateway, unknown }).toEqual({ identity: 0, gateway: 0, unknown: 1 });
    }, 60_000);

    it('refuses a second identity process on the first one’s data folder, naming the owner', async () => {
      const root = join(import.meta.dirname, '..');
      const second = spawn(process.execPath, ['--import', 'tsx', join(root, 'services/identity/src/main.ts')], {
        cwd: root,
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          NATS_URL: cluster.nats.url,
          REDIS_URL: cluster.redis.url,
          DATA_DIR: join(cluster.dataDir, 'identity'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      second.stdout!.on('data', (d) => (output += d));
      second.stderr!.on('data', (d) => (output += d));
      const code = await new Promise((resolve) => second.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(`is in use by process ${cluster.pid('identity')}`);
    });
  },
);
