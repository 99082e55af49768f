import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';
import { RecordingChatModel } from './support/recording-chat-model';
import { epochSeconds, signUserToken } from './support/user-token';

describe('surface B (x-service-key)', () => {
  let e2e: E2eApp;
  const model = new RecordingChatModel();
  let keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
  const base = () => `${e2e.url}/api`;
  const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
    http(`${base()}${path}`, { method: init.method, body: init.body, headers: { 'x-service-key': init.key ?? keys.privateKey } });
  const say = (text: string, extra: Record<string, unknown> = {}) => ({
    message: { role: 'user', parts: [{ type: 'text', text }] },
    ...extra,
  });

  beforeAll(async () => {
    e2e = await startE2eApp({}, { chatModel: model });
    keys = await e2e.admin.createProject();
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, {
      quickPrompts: [{ title: 'Shipping', prompt: 'How long does shipping take?' }],
      handoff: { enabled: true },
    });
  });
  afterAll(() => e2e.stop());

  it('needs a live private key: missing, bad or revoked 401, publishable 403, in the v2 envelope', async () => {
    expect((await http(`${base()}/get-project`)).status).toBe(401);
    const bad = await call('/get-project', { key: 'sk_nothing' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHORIZED');
    const publishable = await call('/get-project', { key: keys.publishableKey });
    expect(publishable.status).toBe(403);
    expect(publishable.body.error.code).toBe('FORBIDDEN');
    const spare = await e2e.admin.call('POST', `/projects/${keys.project.id}/keys`, { type: 'private', name: 'spare' });
    expect((await call('/get-project', { key: spare.key })).status).toBe(200);
    await e2e.admin.call('DELETE', `/projects/${keys.project.id}/keys/${spare.id}`);
    expect((await call('/get-project', { key: spare.key })).status).toBe(401);
  });

  it('GET /get-project: the project with its widget config and quick prompts', async () => {
    const project = (await call('/get-project')).body;
    expect(project).toMatchObject({ id: keys.project.id, name: 'Test project', chatWidgetConfig: { position: 'bottom-right' } });
    expect(project.quickPrompts).toEqual([{ id: expect.any(String), title: 'Shipping', prompt: 'How long does shipping take?' }]);
  });

  it('POST /customers/{appUserId}: creates, then updates and merges attributes; bounds are checked', async () => {
    const created = await call('/customers/user-1', { body: { name: 'Ann', email: 'ann@example.com', attributes: { plan: 'gold' } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ appUserId: 'user-1', name: 'Ann', projectId: keys.project.id, attributes: { plan: 'gold' } });
    const updated = await call('/customers/user-1', { body: { attributes: { city: 'Lyon' } } });
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Ann', attributes: { plan: 'gold', city: 'Lyon' } });
    expect((await call('/customers/user-1', { body: { email: 'nope' } })).status).toBe(422);
    expect((await call('/customers/user-1', { body: { attributes: { a: 1 } } })).status).toBe(400);
    expect((await call(`/customers/${'x'.repeat(101)}`, { body: {} })).status).toBe(400);
  });

  it('POST /customers/{appUserId}: at most 100 attributes once merged (422 beyond, nothing stored)', async () => {
    const batch = (n: number) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${n}-${i}`, 'x'.repeat(1000)]));
    expect((await call('/customers/user-big', { body: { attributes: batch(1) } })).status).toBe(200);
    expect((await call('/customers/user-big', { body: { attributes: batch(2) } })).status).toBe(200);
    const third = await call('/customers/user-big', { body: { attributes: batch(3) } });
    expect(third.status).toBe(422);
    expect(third.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'attributes' } });
    const stored = await call('/customers/user-big', { body: { attributes: { 'k1-0': 'changed' } } });
    expect(Object.keys(stored.body.attributes)).toHaveLength(100);
    expect(stored.body.attributes['k1-0']).toBe('changed');
  });

  it('chats: streamed and JSON replies, created with the caller id, listed and read; one history with v2', async () => {
    const chatId = randomUUID();
    const streamed = await call(`/customers/user-2/chats/${chatId}/chat`, {
      body: say('Where is my parcel?', { pageUrl: 'https://shop.example/track', pageContent: 'Tracking page: parcels ship in 2 days.' }),
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/plain');
    expect(streamed.text).toBe('Reply 1 to "Where is my parcel?"');
    expect(model.lastSystemPrompt()).toContain('parcels ship in 2 days');

    const json = await call(`/customers/user-2/chats/${chatId}/chat`, { body: say('Thanks!', { streaming: false }) });
    expect(json.status).toBe(200);
    expect(json.body).toBe('Reply 2 to "Thanks!"');
    expect(model.lastTurns().map((t) => t.content)).toEqual(['Where is my parcel?', 'Reply 1 to "Where is my parcel?"', 'Thanks!']);

    const chat = (await call(`/customers/user-2/chats/${chatId}`)).body;
    expect(chat).toMatchObject({ id: chatId, status: 'open', isHumanHandled: false, humanAgent: null, projectId: keys.project.id });
    expect(chat.lastInterationAt).toEqual(expect.any(String));
    expect(chat.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(chat.messages[0]).toMatchObject({ pageUrl: 'https://shop.example/track', humanAgent: null, humanAgentId: null });

    const list = (await call('/customers/user-2/chats?filter=open&page=1&pageSize=5')).body;
    expect(list).toMatchObject({ page: 1, pageSize: 5, totalPages: 1 });
    expect(list.data).toEqual([
      expect.objectContaining({ id: chatId, status: 'open', closedAt: null, lastMessage: expect.objectContaining({ role: 'assistant' }) }),
    ]);
    expect((await call('/customers/user-2/chats?filter=closed')).body).toMatchObject({ data: [], totalPages: 0, pageSize: 10 });

    // The same person on v2: a user token whose sub is the appUserId opens a session on the same history.
    const secret = (await e2e.admin.call('POST', `/projects/${keys.project.id}/identity-secret`)).secret;
    const userToken = signUserToken({ sub: 'user-2', exp: epochSeconds(600) }, secret);
    const init = await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: keys.publishableKey, saVid: 'some-device', userToken } });
    const visitor = { token: init.body.sessionToken as string, visitor: init.body.visitor };
    expect(visitor.visitor).toMatchObject({ type: 'identified', externalId: 'user-2', id: chat.customerId });
    const onV2 = (await http(`${e2e.url}/v2/conversations/${chatId}`, { token: visitor.token })).body;
    expect(onV2.messages).toHaveLength(4);
    await http(`${e2e.url}/v2/conversations/${chatId}/messages`, { body: { content: 'From the widget' }, token: visitor.token });
    const after = (await call(`/customers/user-2/chats/${chatId}`)).body;
    expect(after.messages.map((m: { parts: { text: string }[] }) => m.parts[0]!.text)).toContain('From the widget');
  });

  it('chats: bounds and errors of paging, filter and ids', async () => {
    await call('/customers/user-3', { body: {} });
    for (const q of ['page=abc', 'pageSize=ten']) expect((await call(`/customers/user-3/chats?${q}`)).status, q).toBe(400);
    for (const q of ['page=0', 'pageSize=0', 'pageSize=101', 'filter=archived'])
      expect((await call(`/customers/user-3/chats?${q}`)).status, q).toBe(422);
    expect((await call('/customers/nobody/chats')).status).toBe(404);
    expect((await call('/customers/user-3/chats/not-a-uuid')).status).toBe(400);
    // Another customer's chat, or another project's, is not there.
    const chatId = randomUUID();
    await call(`/customers/user-4/chats/${chatId}/chat`, { body: say('hello', { streaming: false }) });
    expect((await call(`/customers/user-3/chats/${chatId}`)).status).toBe(404);
    expect((await call(`/customers/user-3/chats/${chatId}/chat`, { body: say('mine?') })).status).toBe(404);
    const other = await e2e.admin.createProject();
    await http(`${base()}/customers/user-4`, { body: {}, headers: { 'x-service-key': other.privateKey } });
    expect((await http(`${base()}/customers/user-4/chats/${chatId}`, { headers: { 'x-service-key': other.privateKey } })).status).toBe(404);
    // Body bounds.
    expect(
      (await call(`/customers/user-3/chats/${randomUUID()}/chat`, { body: say('x', { pageContent: 'y'.repeat(10_001) }) })).status,
    ).toBe(422);
    expect((await call(`/customers/user-3/chats/${randomUUID()}/chat`, { body: say('x'.repeat(10_001)) })).status).toBe(422);
    expect((await call(`/customers/user-3/chats/${randomUUID()}/chat`, { body: { message: { role: 'user', parts: [] } } })).status).toBe(
      422,
    );
    expect(
      (
        await call(`/customers/user-3/chats/${randomUUID()}/chat`, {
          body: say('x', { previousMessages: [{ role: 'system', content: 'x' }] }),
        })
      ).status,
    ).toBe(422);
  });

  it("another project's chat id is 404, as the docs say: a 409 would tell that the id exists", async () => {
    const chatId = randomUUID();
    expect((await call(`/customers/user-7/chats/${chatId}/chat`, { body: say('hello', { streaming: false }) })).status).toBe(200);
    const other = await e2e.admin.createProject();
    const elsewhere = await http(`${base()}/customers/user-7/chats/${chatId}/chat`, {
      body: say('is it there?', { streaming: false }),
      headers: { 'x-service-key': other.privateKey },
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await call(`/customers/user-7/chats/${chatId}`)).body.messages).toHaveLength(2);
  });

  it('a refused message stores nothing: an oversized one is 422, a regenerate into a new chat id 404, neither creates the chat', async () => {
    await call('/customers/user-8', { body: {} });
    const oversized = randomUUID();
    const twoParts = {
      message: {
        role: 'user',
        parts: [
          { type: 'text', text: 'a'.repeat(6_000) },
          { type: 'text', text: 'b'.repeat(6_000) },
        ],
      },
    };
    const refused = await call(`/customers/user-8/chats/${oversized}/chat`, { body: twoParts });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'message.parts' } });
    expect((await call(`/customers/user-8/chats/${oversized}`)).status).toBe(404);

    const regenerated = randomUUID();
    const regenerate = await call(`/customers/user-8/chats/${regenerated}/chat`, { body: say('x', { messageId: randomUUID() }) });
    expect(regenerate.status).toBe(404);
    expect((await call(`/customers/user-8/chats/${regenerated}`)).status).toBe(404);
    expect((await call('/customers/user-8/chats')).body.data).toEqual([]);
    // Nor does a regenerate for a customer the project has never seen create the customer.
    expect((await call(`/customers/nobody-yet/chats/${randomUUID()}/chat`, { body: say('x', { messageId: randomUUID() }) })).status).toBe(
      404,
    );
    expect((await call('/customers/nobody-yet/chats')).status).toBe(404);
  });

  it('regenerate via messageId: a new version under the same id, the old one kept in the event log', async () => {
    const chatId = randomUUID();
    await call(`/customers/user-5/chats/${chatId}/chat`, { body: say('Tell me a joke', { streaming: false }) });
    const first = (await call(`/customers/user-5/chats/${chatId}`)).body.messages[1];
    const again = await call(`/customers/user-5/chats/${chatId}/chat`, {
      body: say('Tell me a joke', { messageId: first.id, streaming: false }),
    });
    expect(again.status).toBe(200);
    expect(again.body).not.toBe(first.parts[0].text);
    expect(model.lastTurns().map((t) => t.content)).toEqual(['Tell me a joke']);
    const chat = (await call(`/customers/user-5/chats/${chatId}`)).body;
    expect(chat.messages).toHaveLength(2);
    expect(chat.messages[1]).toMatchObject({ id: first.id, status: 'complete', parts: [{ type: 'text', text: again.body }] });
    // The feed is analytics' projection of the durable stream: eventually consistent.
    const completions = async () =>
      (await e2e.admin.call('GET', `/projects/${keys.project.id}/events?type=reply.completed&limit=500`)).data.filter(
        (e: { data: { messageId: string } }) => e.data.messageId === first.id,
      );
    await expect.poll(completions, { timeout: 10_000, interval: 100 }).toHaveLength(2);
    const userMessage = chat.messages[0].id;
    expect((await call(`/customers/user-5/chats/${chatId}/chat`, { body: say('x', { messageId: userMessage }) })).status).toBe(404);
  });

  it('previousMessages replace the stored history for the model', async () => {
    const chatId = randomUUID();
    const previousMessages = [
      { role: 'user', content: 'My name is Zoe' },
      { role: 'assistant', content: 'Hello Zoe' },
    ];
    const reply = await call(`/customers/user-6/chats/${chatId}/chat`, {
      body: say('What is my name?', { previousMessages, streaming: false }),
    });
    expect(reply.status).toBe(200);
    expect(model.lastTurns()).toEqual([...previousMessages, { role: 'user', content: 'What is my name?' }]);
  });

  it('a human-handled chat answers 202; the agent reply shows with its humanAgent', async () => {
    const chatId = randomUUID();
    const asked = await call(`/customers/user-7/chats/${chatId}/chat`, { body: say('I want to talk to a human', { streaming: false }) });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatch(/agent will answer/);
    expect((await call(`/customers/user-7/chats/${chatId}/chat`, { body: say('hello?') })).status).toBe(202);
    const agent = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, { name: 'Bo', image: 'https://img.example/bo.png' });
    const claimed = await http(`${e2e.url}/agent/v1/queue/claim`, { method: 'POST', token: agent.token });
    expect(claimed.body.id).toBe(chatId);
    await http(`${e2e.url}/agent/v1/conversations/${chatId}/messages`, { body: { content: 'Bo here' }, token: agent.token });
    const chat = (await call(`/customers/user-7/chats/${chatId}`)).body;
    expect(chat).toMatchObject({
      isHumanHandled: true,
      humanAgentId: agent.id,
      humanAgent: { id: agent.id, name: 'Bo' },
      handoffAt: expect.any(String),
    });
    expect(chat.messages.at(-1)).toMatchObject({
      role: 'human_agent',
      humanAgentId: agent.id,
      humanAgent: { id: agent.id, name: 'Bo', image: 'https://img.example/bo.png' },
    });
  });

  it('GET /qnas: Q&A summaries, paged, with query bounds', async () => {
    for (const question of ['How do refunds work?', 'Do you ship abroad?', 'What payment methods?']) {
      await e2e.admin.call('POST', `/projects/${keys.project.id}/qnas`, { question, answer: 'Yes.' });
    }
    const page = (await call('/qnas?page=2&pageSize=2')).body;
    expect(page).toMatchObject({ page: 2, pageSize: 2, totalPages: 2 });
    expect(page.data).toHaveLength(1);
    expect(Object.keys(page.data[0]).sort()).toEqual(['createdAt', 'id', 'title', 'updatedAt']);
    const found = (await call('/qnas?query=refunds')).body;
    expect(found.data.map((q: { title: string }) => q.title)).toEqual(['How do refunds work?']);
    expect((await call(`/qnas?query=${'q'.repeat(101)}`)).status).toBe(422);
    expect((await call('/qnas?pageSize=1000')).status).toBe(422);
  });
});
