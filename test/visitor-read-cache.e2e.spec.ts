import { ConversationMessages } from '@palaver/contracts';
import { expect, it, vi } from 'vitest';
import { http, newVisitor } from './support/e2e-app';
import { describeWithTwoGateways } from './support/second-gateway';
import { parseUiMessageStream } from './support/ui-stream';

/**
 * Two gateway instances in front of the same services, each with its own pub/sub connection: a
 * visitor's reads cached on one follow the writes made through the other (and the replies the
 * services finish on their own) by the time the write's answer arrived.
 */
describeWithTwoGateways('visitor reads cached in the gateway', (start) => {
  it('answers repeated reads without asking the service, and every write through the other instance shows at once', async () => {
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
    const { e2e, other } = await start();
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
