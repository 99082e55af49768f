import { readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, startE2eApp } from '../../../test/support/e2e-app';
import { SteppedChatModel } from '../../../test/support/stepped-chat-model';
import { palaverTransport } from './transport';

describe('palaverTransport.reconnectToStream (useChat({ resume: true }))', () => {
  let e2e: E2eApp;
  let apiKey: string;
  const model = new SteppedChatModel();
  beforeAll(async () => {
    e2e = await startE2eApp({}, { chatModel: model });
    apiKey = (await e2e.admin.createProject({ name: 'Resume shop' })).publishableKey;
  });
  afterAll(() => e2e.stop());

  it('resumes the reply in progress after a reload, with its stored message id; null once it is over; stopReply stops one', async () => {
    const before = palaverTransport({ baseUrl: e2e.url, apiKey, deviceId: 'resume-device' });
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Tell me a story' }] };
    const leaving = new AbortController();
    const first = await before.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages: [user],
      abortSignal: leaving.signal,
    });
    await model.started();
    model.send('Once ');
    const reader = first.getReader();
    while ((await reader.read()).value?.type !== 'text-delta');
    // The page reloads: the first request is gone, a new transport knows the chat's conversation.
    leaving.abort();
    const conversationId = before.conversationId('chat-1')!;
    const after = palaverTransport({ baseUrl: e2e.url, apiKey, deviceId: 'resume-device', conversations: { 'chat-1': conversationId } });
    const resumed = await after.reconnectToStream({ chatId: 'chat-1' });
    expect(resumed).not.toBeNull();
    model.send('upon a time.');
    model.end();
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: resumed! })) message = snapshot;
    const stored = (await after.client.listMessages(conversationId, { role: 'assistant' })).data[0]!;
    expect(stored).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'Once upon a time.' }] });
    expect(message?.id).toBe(stored.id);
    expect(message?.parts.find((part) => part.type === 'text')).toMatchObject({ text: 'Once upon a time.' });
    expect(await after.reconnectToStream({ chatId: 'chat-1' })).toBeNull();
    expect(await after.reconnectToStream({ chatId: 'unknown-chat' })).toBeNull();

    const second = await after.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages: [user],
      abortSignal: undefined,
    });
    await model.started();
    model.send('Half');
    const secondReader = second.getReader();
    while ((await secondReader.read()).value?.type !== 'text-delta');
    expect(await after.client.stopReply(conversationId)).toMatchObject({ stopped: true });
    while (!(await secondReader.read()).done);
    const stopped = (await after.client.listMessages(conversationId, { role: 'assistant' })).data;
    expect(stopped.at(-1)).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'Half' }] });
  });
});
