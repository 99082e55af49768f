import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdentityMessages } from '@palaver/contracts';
import { buildGateway } from '@palaver/gateway';
import { createInfrastructure, type Infrastructure, infraAvailable, infraUrl, loadConfig } from '@palaver/platform';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

const redis = await infraAvailable('redis');

/**
 * Two gateway instances in front of the same services, each with its own pub/sub connection: the
 * cached sessions, keys and projects of one follow changes made through the other at once.
 */
const variants = [
  { name: 'embedded pub/sub', env: {} as Record<string, string>, run: true },
  {
    name: `Redis pub/sub${redis ? '' : ` (Redis at ${infraUrl('redis')} unreachable: skipped)`}`,
    env: { REDIS_URL: infraUrl('redis') },
    run: redis,
  },
];

for (const variant of variants) {
  describe.skipIf(!variant.run)(`identity answers cached in the gateway, ${variant.name}`, () => {
    let e2e: E2eApp;
    let second: { gateway: FastifyInstance; url: string; infra: Infrastructure; dir: string } | null = null;

    const startSecondGateway = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'palaver-gw2-'));
      // Its own pub/sub connection (the in-process one is shared: there is one process).
      const infra = await createInfrastructure(loadConfig({ DATA_DIR: dir, ...variant.env }), { only: ['pubsub'] });
      const pubsub = variant.env.REDIS_URL ? infra.pubsub : e2e.app.infra.pubsub;
      const gateway = await buildGateway({ ...e2e.app.infra, pubsub, adminToken: e2e.app.adminToken });
      await gateway.listen({ port: 0, host: '127.0.0.1' });
      const address = gateway.server.address();
      second = { gateway, infra, dir, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
      return second.url;
    };

    afterEach(async () => {
      if (second) {
        await second.gateway.close();
        await second.infra.close();
        await rm(second.dir, { recursive: true, force: true });
        second = null;
      }
      await e2e?.stop();
    });

    it('answers repeated requests without asking identity, and a revocation on one instance stops the session on the other at once', async () => {
      e2e = await startE2eApp(variant.env);
      const other = await startSecondGateway();
      const { project, publishableKey, publishableKeyId } = await e2e.admin.createProject();
      const { token } = await newVisitor(other, publishableKey);
      const send = vi.spyOn(e2e.app.infra.services, 'send');
      const resolves = () => send.mock.calls.filter(([message]) => message === IdentityMessages.resolveSession).length;

      for (let i = 0; i < 3; i++) expect((await http(`${other}/v2/conversations`, { token })).status).toBe(200);
      expect((await http(`${e2e.url}/v2/conversations`, { token })).status).toBe(200);
      expect(resolves()).toBe(2); // once per gateway instance

      await e2e.admin.call('DELETE', `/projects/${project.id}/keys/${publishableKeyId}`);
      expect((await http(`${other}/v2/conversations`, { token })).status).toBe(401);
      expect((await http(`${e2e.url}/v2/conversations`, { token })).status).toBe(401);
      const init = await http(`${other}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'again' } });
      expect(init.status).toBe(401);
    });

    it("a project's changed limits apply on every instance at once", async () => {
      e2e = await startE2eApp(variant.env);
      const other = await startSecondGateway();
      const { project, publishableKey } = await e2e.admin.createProject();
      const { token } = await newVisitor(other, publishableKey);
      const conversationId = (await http(`${other}/v2/conversations`, { body: {}, token })).body.id;
      const post = () => http(`${other}/v2/conversations/${conversationId}/messages`, { body: { content: 'Hello?' }, token });
      expect((await post()).status).toBe(200); // the project is now cached on the other instance

      await e2e.admin.call('PATCH', `/projects/${project.id}`, { limits: { monthlyMessages: 1 } });
      expect((await post()).status).toBe(200);
      const limited = await post();
      expect(limited.status).toBe(429);
      expect(limited.body.error.details.limit).toBe('monthlyMessages');
    });
  });
}
