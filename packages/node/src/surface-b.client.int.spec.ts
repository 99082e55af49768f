import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, startE2eApp } from '../../../test/support/e2e-app';
import { RecordingChatModel } from '../../../test/support/recording-chat-model';
import { PalaverServer } from './surface-b.client';

describe('PalaverServer (surface B) against the running product', () => {
  let e2e: E2eApp;
  let server: PalaverServer;
  const model = new RecordingChatModel();

  beforeAll(async () => {
    e2e = await startE2eApp({}, { chatModel: model });
    const { privateKey } = await e2e.admin.createProject();
    server = new PalaverServer({ baseUrl: e2e.url, serviceKey: privateKey });
  });
  afterAll(() => e2e.stop());

  it('customers: created, updated with merged attributes, an app user id with any character', async () => {
    const created = await server.upsertCustomer('user/ä 1', { name: 'Ann', attributes: { plan: 'gold' } });
    expect(created).toMatchObject({ appUserId: 'user/ä 1', name: 'Ann', attributes: { plan: 'gold' } });
    const updated = await server.upsertCustomer('user/ä 1', { attributes: { city: 'Lyon' } });
    expect(updated).toMatchObject({ id: created.id, attributes: { plan: 'gold', city: 'Lyon' } });
    await expect(server.upsertCustomer('u', { email: 'not-an-email' })).rejects.toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
  });

  it('chats: a streamed reply, a JSON reply, history given, listed and read; an unknown customer is 404', async () => {
    const chatId = crypto.randomUUID();
    const streamed = await server.streamChat('user-2', chatId, { message: 'Where is my parcel?', pageUrl: 'https://shop.example/track' });
    if (streamed.type !== 'stream') throw new Error('expected a stream');
    const chunks: string[] = [];
    for await (const chunk of streamed.textStream) chunks.push(chunk);
    expect(chunks.join('')).toMatch(/^Reply \d+ to "Where is my parcel\?"$/);

    const json = await server.chat('user-2', chatId, {
      message: { role: 'user', parts: [{ type: 'text', text: 'And now?' }] },
      previousMessages: [{ role: 'user', content: 'Earlier question' }],
    });
    expect(json).toEqual({ type: 'reply', text: expect.stringMatching(/^Reply \d+ to "And now\?"$/) });
    expect(model.lastTurns().map((t) => t.content)).toEqual(['Earlier question', 'And now?']);

    const page = await server.listChats('user-2', { filter: 'open', pageSize: 5 });
    expect(page).toMatchObject({ page: 1, pageSize: 5, totalPages: 1, data: [{ id: chatId, status: 'open' }] });
    const chat = await server.getChat('user-2', chatId);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(chat.messages[0]?.pageUrl).toBe('https://shop.example/track');
    await expect(server.listChats('nobody')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('Q&A entries: searched by question', async () => {
    const projectId = (await server.getProject()).id;
    await e2e.admin.call('POST', `/projects/${projectId}/qnas`, { question: 'Do you ship abroad?', answer: 'Yes.' });
    await e2e.admin.call('POST', `/projects/${projectId}/qnas`, { question: 'Opening hours?', answer: '9 to 5.' });
    const page = await server.listQnas({ query: 'ship' });
    expect(page.data.map((q) => q.title)).toEqual(['Do you ship abroad?']);
  });
});
