import { readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, startE2eApp } from '../../../test/support/e2e-app';
import { epochSeconds, signUserToken } from '../../../test/support/user-token';
import { PalaverClient } from './client';
import { PalaverApiError } from './errors';
import { palaverTransport } from './transport';
import type { PalaverUiChunk } from './ui-stream';

const collect = async <T>(stream: ReadableStream<T>): Promise<T[]> => {
  const items: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) items.push(item);
  return items;
};

describe('PalaverClient and palaverTransport against the running app', () => {
  let e2e: E2eApp;
  let apiKey: string;
  let projectId: string;
  beforeAll(async () => {
    e2e = await startE2eApp();
    const created = await e2e.admin.createProject({ name: 'Client shop' });
    apiKey = created.publishableKey;
    projectId = created.project.id;
    await e2e.admin.call('PATCH', `/projects/${projectId}`, { quickPrompts: [{ title: 'Hours', prompt: 'When are you open?' }] });
    await e2e.admin.call('POST', `/projects/${projectId}/qnas`, {
      question: 'When are you open?',
      answer: 'We are open from 9 to 5 on weekdays.',
    });
  });
  afterAll(() => e2e.stop());

  it('reads the project with its quick prompts, and starts a session on the first visitor call', async () => {
    const client = new PalaverClient({ baseUrl: `${e2e.url}/v2`, apiKey, deviceId: 'client-device-1' });
    const project = await client.getProject();
    expect(project.id).toBe(projectId);
    expect(project.quickPrompts).toEqual([expect.objectContaining({ title: 'Hours', prompt: 'When are you open?' })]);
    expect(client.currentVisitor).toBeNull();
    const conversation = await client.createConversation({ pageUrl: 'https://shop.example/help' });
    expect(conversation).toMatchObject({ object: 'conversation', status: 'open', messages: [] });
    expect(client.currentVisitor?.type).toBe('anonymous');
  });

  it('streams a reply whose text-start names the stored message, which takes feedback and closes', async () => {
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-2' });
    const { id } = await client.createConversation();
    const reply = await client.streamMessage(id, {
      content: 'When are you open?',
      pageContext: { url: 'https://shop.example/p', title: 'P' },
    });
    if (reply.type !== 'stream') throw new Error('expected a stream');
    const chunks: PalaverUiChunk[] = await collect(reply.chunks);
    expect(chunks.map((chunk) => chunk.type)).toEqual(
      expect.arrayContaining(['start', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish']),
    );
    const text = chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('');
    expect(text).toContain('9 to 5');
    const textStart = chunks.find((chunk) => chunk.type === 'text-start') as { providerMetadata: { palaver: { messageId: string } } };
    const messageId = textStart.providerMetadata.palaver.messageId;

    const { data } = await client.listMessages(id);
    expect(data.map((message) => [message.role, message.id])).toEqual([
      ['user', expect.any(String)],
      ['assistant', messageId],
    ]);
    expect(data[0]!.metadata).toMatchObject({ pageUrl: 'https://shop.example/p', pageTitle: 'P' });
    expect(await client.feedback(messageId, 'like')).toEqual({ feedback: 'like' });
    expect(await client.closeConversation(id, 'resolved')).toMatchObject({ success: true });
    expect((await client.getConversation(id)).closeReason).toBe('resolved');
  });

  it('answers errors as PalaverApiError with the code and status of the envelope', async () => {
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey: 'pk_not_a_key', deviceId: 'd' });
    const error = await client.getProject().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PalaverApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const visitor = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-3' });
    const { id } = await visitor.createConversation();
    await visitor.closeConversation(id);
    const conflict = await visitor.streamMessage(id, { content: 'still there?' }).catch((caught: unknown) => caught);
    expect(conflict).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('with the userToken option, starts sessions on the identified user, asking the function again on renewal', async () => {
    const { secret } = await e2e.admin.call('POST', `/projects/${projectId}/identity-secret`);
    let signed = 0;
    const userToken = () => {
      signed += 1;
      return signUserToken({ sub: 'client-user-1', name: 'Ann', exp: epochSeconds(600) }, secret);
    };
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-7', userToken });
    const { id } = await client.createConversation();
    expect(client.currentVisitor).toMatchObject({ type: 'identified', externalId: 'client-user-1', name: 'Ann' });
    expect(await client.me()).toMatchObject({ type: 'identified', externalId: 'client-user-1' });
    (client as unknown as { sessionToken: string }).sessionToken = 'st_expired';
    expect((await client.getConversation(id)).id).toBe(id);
    expect(signed).toBe(2);

    // The same person from another client (a fixed token); identify(null) goes back to the device's anonymous visitor.
    const other = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-8', userToken: userToken() });
    expect((await other.listConversations()).data.map((c) => c.id)).toEqual([id]);
    expect((await other.identify(null)).visitor.type).toBe('anonymous');
    expect((await other.listConversations()).data).toEqual([]);
    const back = await other.identify(userToken());
    expect(back.visitor.id).toBe(client.currentVisitor?.id);

    const forged = new PalaverClient({
      baseUrl: e2e.url,
      apiKey,
      deviceId: 'd',
      userToken: signUserToken({ sub: 'x', exp: epochSeconds(60) }, 'wrong'),
    });
    expect(await forged.me().catch((caught: unknown) => caught)).toMatchObject({ status: 401, code: 'INVALID_USER_TOKEN' });
  });

  it('renews an expired session once with the same device id', async () => {
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-4' });
    const first = await client.init();
    const { id } = await client.createConversation();
    // End the session as expiry would: the key-value store forgets it.
    (client as unknown as { sessionToken: string }).sessionToken = 'st_expired';
    const conversation = await client.getConversation(id);
    expect(conversation.id).toBe(id);
    expect(client.currentVisitor?.id).toBe(first.visitor.id);
  });

  it('follows the live events of a conversation: handoff and the agent message', async () => {
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-6' });
    const { id } = await client.createConversation();
    const controller = new AbortController();
    const events = (await client.conversationEvents(id, { signal: controller.signal })).getReader();
    await e2e.admin.call('POST', `/projects/${projectId}/conversations/${id}/handoff`, { humanAgent: { name: 'Ada', image: null } });
    await e2e.admin.call('POST', `/projects/${projectId}/conversations/${id}/messages`, { content: 'Ada here.' });
    const seen: string[] = [];
    for (;;) {
      const { value } = await events.read();
      seen.push(value!.type);
      if (value!.type === 'message.created') {
        expect(value!.message).toMatchObject({ role: 'human_agent', parts: [{ type: 'text', text: 'Ada here.' }] });
        expect(value!.conversation).toMatchObject({ id, isHumanHandled: true, humanAgent: { name: 'Ada' } });
        break;
      }
    }
    expect(seen[0]).toMatch(/^handoff\./);
    controller.abort();
  });

  it('sends typing to the agent holding the conversation and yields the agent’s typing, without an id', async () => {
    await e2e.admin.call('PATCH', `/projects/${projectId}`, { handoff: { enabled: true } });
    const ada = await e2e.admin.call('POST', `/projects/${projectId}/agents`, { name: 'Ada' });
    const agent = (method: string, path: string) =>
      fetch(`${e2e.url}/agent/v1${path}`, { method, headers: { authorization: `Bearer ${ada.token}` } });
    const client = new PalaverClient({ baseUrl: e2e.url, apiKey, deviceId: 'client-device-typing' });
    const { id } = await client.createConversation();
    await client.sendMessage(id, { content: 'Can I talk to a human please?' });
    expect((await agent('POST', `/conversations/${id}/handoff`)).status).toBe(200);
    const feedController = new AbortController();
    const feed = await fetch(`${e2e.url}/agent/v1/events`, {
      headers: { authorization: `Bearer ${ada.token}` },
      signal: feedController.signal,
    });
    const controller = new AbortController();
    const events = (await client.conversationEvents(id, { signal: controller.signal })).getReader();
    try {
      await client.sendTyping(id);
      // The agent's feed shows it (a raw SSE read: `event: typing` with the visitor's side).
      const reader = feed.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!/event: typing\ndata: .*"by":"visitor"/.test(text)) text += (await reader.read()).value ?? '';
      expect(text).toContain(id);
      expect((await agent('POST', `/conversations/${id}/typing`)).status).toBe(204);
      for (;;) {
        const { value } = await events.read();
        if (value?.type !== 'typing') continue;
        expect(value).toMatchObject({ type: 'typing', by: 'agent', conversationId: id, humanAgent: { id: ada.id, name: 'Ada' } });
        expect('id' in value).toBe(false);
        break;
      }
    } finally {
      controller.abort();
      feedController.abort();
    }
  });

  it('gives useChat a stream whose assistant message carries the stored message id', async () => {
    const seen: Array<[string, string]> = [];
    const transport = palaverTransport({
      baseUrl: e2e.url,
      apiKey,
      deviceId: 'client-device-5',
      pageContext: () => ({ url: 'https://shop.example/cart', title: 'Cart' }),
      onConversation: (chatId, conversationId) => seen.push([chatId, conversationId]),
    });
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'When are you open?' }] };
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages: [user],
      abortSignal: undefined,
    });
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;

    const conversationId = transport.conversationId('chat-1')!;
    expect(seen).toEqual([['chat-1', conversationId]]);
    const stored = await transport.client.listMessages(conversationId, { role: 'assistant' });
    expect(message?.id).toBe(stored.data[0]!.id);
    expect(message?.metadata).toEqual({ palaver: { conversationId, messageId: stored.data[0]!.id } });
    expect(message?.parts.find((part) => part.type === 'text')).toMatchObject({ text: expect.stringContaining('9 to 5') });

    // The second message goes to the same conversation.
    await collect(
      await transport.sendMessages({
        trigger: 'submit-message',
        chatId: 'chat-1',
        messageId: undefined,
        messages: [user, message!, user],
        abortSignal: undefined,
      }),
    );
    const all = await transport.client.listMessages(conversationId);
    expect(all.data.filter((m) => m.role === 'user')).toHaveLength(2);
    expect(all.data[0]!.metadata).toMatchObject({ pageUrl: 'https://shop.example/cart', pageTitle: 'Cart' });
  });
});
