import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationMessages } from '@palaver/contracts';
import { buildGateway } from '@palaver/gateway';
import { createInfrastructure, type Infrastructure, infraAvailable, infraUrl, loadConfig } from '@palaver/platform';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

const redis = await infraAvailable('redis');

/**
 * Two gateway instances in front of the same services, each with its own pub/sub connection: a
 * visitor's reads cached on one follow the writes made through the other (and the replies the
 * services finish on their own) by the time the write's answer arrived.
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
  describe.skipIf(!variant.run)(`visitor reads cached in the gateway, ${variant.name}`, () => {
    let e2e: E2eApp;
    let second: { gateway: FastifyInstance; url: string; infra: Infrastructure; dir: string } | null = null;

    const startSecondGateway = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'palaver-gw2-'));
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

    it('answers repeated reads without asking the service, and every write through the other instance shows at once', async () => {
      e2e = await startE2eApp(variant.env);
      const other = await startSecondGateway();
      const { publishableKey } = await e2e.admin.createProject();
      const { token } = await newVisitor(e2e.url, publishableKey);
      const send = vi.spyOn(e2e.app.infra.services, 'send');
      const lists = () => send.mock.calls.filter(([message]) => message === ConversationMessages.list).length;
      const list = async () => (await http(`${other}/v2/conversations`, { token })).body;

      expect((await list()).total).toBe(0);
      expect((await list()).total).toBe(0);
      expect(lists()).toBe(1);

      const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
      expect((await list()).data.map((c: { id: string }) => c.id)).toEqual([conversationId]);
      const conversation = async () => (await http(`${other}/v2/conversations/${conversationId}`, { token })).body;
      expect((await conversation()).messages).toEqual([]);

      const posted = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Hello?' }, token });
      expect(posted.status).toBe(200);
      const [latest] = (await list()).data;
      expect(latest.lastMessage).toMatchObject({ role: 'assistant', status: 'complete' });
      expect((await conversation()).messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

      expect((await http(`${e2e.url}/v2/conversations/${conversationId}/close`, { body: {}, token })).status).toBe(200);
      expect((await list()).data[0].status).toBe('closed');
      expect((await conversation()).status).toBe('closed');
      const afterWrites = lists();
      await list();
      expect(lists()).toBe(afterWrites);
    });

    it('a streamed reply is complete in the cached read once its stream finished', async () => {
      e2e = await startE2eApp(variant.env);
      const other = await startSecondGateway();
      const { publishableKey } = await e2e.admin.createProject();
      const { token } = await newVisitor(e2e.url, publishableKey);
      const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
      const messages = async () => (await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data;
      expect(await messages()).toEqual([]);

      for (let i = 1; i <= 3; i++) {
        const streamed = await http(`${other}/v2/conversations/${conversationId}/messages`, {
          body: { content: `What are your opening hours? (${i})`, stream: true },
          token,
        });
        const { text } = await parseUiMessageStream(streamed.text);
        const read = await messages();
        expect(read).toHaveLength(2 * i);
        expect(read.at(-1)).toMatchObject({ role: 'assistant', status: 'complete', parts: [{ type: 'text', text }] });
      }
    });
  });
}
