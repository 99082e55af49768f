import { ConversationMessages } from '@palaver/contracts';
import { expect, it, vi } from 'vitest';
import { http, newConversation, newVisitor } from './support/e2e-app';
import { describeWithTwoGateways } from './support/second-gateway';
import { parseUiMessageStream } from './support/ui-stream';

/**
 * Two gateway instances in front of the same services, each with its own pub/sub connection: a
 * visitor's reads cached on one follow the writes made through the other (and the replies the
 * services finish on their own) as soon as the write's announcement reaches it. Embedded pub/sub
 * delivers it before the write answers; Redis has sent it by then, and a gateway reads it from
 * its own connection a moment later (docs/architecture.md), so reads through the other instance
 * are awaited, bounded far below the cache's 30 s expiry: without the announcement they fail.
 */
const ANNOUNCED = { timeout: 2_000, interval: 10 };
describeWithTwoGateways('visitor reads cached in the gateway', (start, pubsub) => {
  it('answers repeated reads without asking the service, and every write through the other instance shows once announced', async () => {
    const { e2e, other } = await start();
    const { publishableKey } = await e2e.admin.createProject();
    const { token } = await newVisitor(e2e.url, publishableKey);
    const send = vi.spyOn(e2e.app.infra.services, 'send');
    const lists = () => send.mock.calls.filter(([message]) => message === ConversationMessages.list).length;
    const list = async () => (await http(`${other}/v2/conversations`, { token })).body;

    expect((await list()).total).toBe(0);
    expect((await list()).total).toBe(0);
    expect(lists()).toBe(1);

    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    await vi.waitFor(async () => expect((await list()).data.map((c: { id: string }) => c.id)).toEqual([conversationId]), ANNOUNCED);
    const conversation = async () => (await http(`${other}/v2/conversations/${conversationId}`, { token })).body;
    expect((await conversation()).messages).toEqual([]);

    const posted = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Hello?' }, token });
    expect(posted.status).toBe(200);
    await vi.waitFor(
      async () => expect((await list()).data[0].lastMessage).toMatchObject({ role: 'assistant', status: 'complete' }),
      ANNOUNCED,
    );
    await vi.waitFor(
      async () => expect((await conversation()).messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']),
      ANNOUNCED,
    );

    expect((await http(`${e2e.url}/v2/conversations/${conversationId}/close`, { body: {}, token })).status).toBe(200);
    await vi.waitFor(async () => expect((await list()).data[0].status).toBe('closed'), ANNOUNCED);
    await vi.waitFor(async () => expect((await conversation()).status).toBe('closed'), ANNOUNCED);
    const afterWrites = lists();
    await list();
    expect(lists()).toBe(afterWrites);
  });

  // Redis only: the in-process pub/sub delivers within the publish, so nothing can lag there.
  if (pubsub.redis) {
    it('a write answered by a gateway shows in its own reads at once, however late it reads the announcement', async () => {
      const { e2e, other, lagOtherDeliveries } = await start();
      const { publishableKey } = await e2e.admin.createProject();
      const { token } = await newVisitor(other, publishableKey);
      const list = async () => (await http(`${other}/v2/conversations`, { token })).body;
      expect((await list()).total).toBe(0); // kept by the gateway

      lagOtherDeliveries!(1_000);
      const conversationId = (await http(`${other}/v2/conversations`, { body: {}, token })).body.id;
      expect((await list()).data.map((c: { id: string }) => c.id)).toEqual([conversationId]);
      expect((await http(`${other}/v2/conversations/${conversationId}/close`, { body: {}, token })).status).toBe(200);
      expect((await list()).data[0].status).toBe('closed');
    });
  }

  it('a streamed reply is complete in the cached read once its stream finished', async () => {
    const { e2e, other } = await start();
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);
    const messages = async () => (await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data;
    expect(await messages()).toEqual([]);

    for (let i = 1; i <= 3; i++) {
      const streamed = await http(`${other}/v2/conversations/${conversationId}/messages`, {
        body: { content: `What are your opening hours? (${i})`, stream: true },
        token,
      });
      const { text } = await parseUiMessageStream(streamed.text);
      await vi.waitFor(async () => {
        const read = await messages();
        expect(read).toHaveLength(2 * i);
        expect(read.at(-1)).toMatchObject({ role: 'assistant', status: 'complete', parts: [{ type: 'text', text }] });
      }, ANNOUNCED);
    }
  });
});
