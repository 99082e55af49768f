import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asUser, signedInUser } from './support/accounts';
import { filesContaining } from './support/data-dir-grep';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { SseClient } from './support/sse';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const POLL = { timeout: 10_000, interval: 50 };

describe('internal notes: for the team, never the visitor', () => {
  let e2e: E2eApp;
  let receiver: WebhookReceiver;
  let keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
  let ada: { id: string; token: string; name: string };
  let grace: { id: string; token: string };

  beforeAll(async () => {
    e2e = await startE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver();
    keys = await e2e.admin.createProject();
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, { handoff: { enabled: true } });
    await e2e.admin.call('POST', `/projects/${keys.project.id}/webhooks`, { url: receiver.url, events: ['*'] });
    ada = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, { name: 'Ada', image: 'https://img.example/ada.png' });
    grace = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, { name: 'Grace' });
  });
  afterAll(async () => {
    await receiver?.close();
    await e2e?.stop();
  });

  const agentCall = (token: string, method: string, path: string, body?: unknown) =>
    http(`${e2e.url}/agent/v1${path}`, { method, body, token });
  const notesOf = (conversationId: string) => `/conversations/${conversationId}/notes`;

  /** A visitor's conversation a person handles: asked for, claimed by Ada. */
  const heldConversation = async () => {
    const { token, visitor } = await newVisitor(e2e.url, keys.publishableKey);
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id as string;
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'Can I talk to a human please?' }, token });
    expect((await agentCall(ada.token, 'POST', `/conversations/${conversationId}/handoff`)).status).toBe(200);
    return { token, visitorId: visitor.id as string, conversationId };
  };

  it('adds notes by any agent of the project, lists them oldest first, for agents and admins alike', async () => {
    const { conversationId } = await heldConversation();
    const first = await agentCall(ada.token, 'POST', notesOf(conversationId), { content: 'Customer since 2019, VIP.' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      conversationId,
      author: { id: ada.id, name: 'Ada', image: 'https://img.example/ada.png' },
      content: 'Customer since 2019, VIP.',
    });
    // Grace does not hold it and still writes one.
    const second = await agentCall(grace.token, 'POST', notesOf(conversationId), { content: 'Refund approved by finance.' });
    expect(second.status).toBe(201);
    expect(second.body.author).toMatchObject({ id: grace.id, name: 'Grace' });

    const listed = await agentCall(grace.token, 'GET', notesOf(conversationId));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([first.body, second.body]);
    const forAdmin = await e2e.admin.call('GET', `/projects/${keys.project.id}/conversations/${conversationId}/notes`);
    expect(forAdmin).toEqual(listed.body);

    // A member working the inbox as themself (session cookie and X-Project-Id) writes as themself.
    const member = await signedInUser(e2e.url, e2e.app.adminToken, `agent-${randomUUID()}@example.com`, 'Lin');
    await e2e.admin.call('PUT', `/projects/${keys.project.id}/members/${member.id}`, { role: 'agent' });
    const byMember = await asUser(e2e.url, member.cookie, `/agent/v1${notesOf(conversationId)}`, {
      method: 'POST',
      body: { content: 'Called them back.' },
      headers: { 'x-project-id': keys.project.id },
    });
    expect(byMember.status).toBe(201);
    expect(byMember.body.author).toEqual({ id: member.id, name: 'Lin', image: null });
    expect(
      (await asUser(e2e.url, member.cookie, `/admin/v1/projects/${keys.project.id}/conversations/${conversationId}/notes`)).body.data,
    ).toHaveLength(3);

    // Closed conversations take notes too.
    await agentCall(ada.token, 'POST', `/conversations/${conversationId}/close`, {});
    expect((await agentCall(grace.token, 'POST', notesOf(conversationId), { content: 'Followed up by email.' })).status).toBe(201);
    expect((await agentCall(ada.token, 'GET', notesOf(conversationId))).body.data).toHaveLength(4);
  });

  it('refuses bad notes, unknown and other projects’ conversations, missing credentials and roles without inbox access', async () => {
    const { conversationId } = await heldConversation();
    const blank = await agentCall(ada.token, 'POST', notesOf(conversationId), { content: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content' } });
    const long = await agentCall(ada.token, 'POST', notesOf(conversationId), { content: 'x'.repeat(10_001) });
    expect(long.status).toBe(422);
    const missing = await agentCall(ada.token, 'POST', notesOf(conversationId), {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_REQUEST_BODY');

    const unknown = randomUUID();
    for (const method of ['GET', 'POST']) {
      const none = await agentCall(ada.token, method, notesOf(unknown), method === 'POST' ? { content: 'x' } : undefined);
      expect(none.status).toBe(404);
      expect(none.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    }
    const other = await e2e.admin.createProject();
    const outsider = await e2e.admin.call('POST', `/projects/${other.project.id}/agents`, { name: 'Eve' });
    expect((await agentCall(outsider.token, 'GET', notesOf(conversationId))).status).toBe(404);
    expect((await agentCall(outsider.token, 'POST', notesOf(conversationId), { content: 'peek' })).status).toBe(404);
    expect((await http(`${e2e.url}/agent/v1${notesOf(conversationId)}`)).status).toBe(401);

    const analyst = await signedInUser(e2e.url, e2e.app.adminToken, `analyst-${randomUUID()}@example.com`);
    await e2e.admin.call('PUT', `/projects/${keys.project.id}/members/${analyst.id}`, { role: 'analyst' });
    const refused = await asUser(e2e.url, analyst.cookie, `/admin/v1/projects/${keys.project.id}/conversations/${conversationId}/notes`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });

  it('reaches the agents’ feed as note.added, and never the visitor, the analytics feed, webhooks or the disk in clear; the admin export lists it apart', async () => {
    const marker = `NOTE-${randomUUID()}`;
    const { token, visitorId, conversationId } = await heldConversation();
    const live = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, bearer(token));
    const feed = await SseClient.open(`${e2e.url}/agent/v1/events`, bearer(grace.token));
    try {
      const before = (await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body;
      const note = await agentCall(ada.token, 'POST', notesOf(conversationId), { content: `Internal: ${marker}` });
      expect(note.status).toBe(201);
      // Not even the conversation's updatedAt tells the visitor of a note.
      expect((await http(`${e2e.url}/v2/conversations/${conversationId}`, { token })).body).toEqual(before);
      const added = await feed.until((e) => e.event === 'note.added' && e.data.conversationId === conversationId);
      expect(added.id).toBe(added.data.id);
      expect(added.data.note).toEqual(note.body);
      expect(added.data.conversation.id).toBe(conversationId);

      // A marker after the note, on every channel: whatever the note made would have come before it.
      const after = await agentCall(ada.token, 'POST', `/conversations/${conversationId}/messages`, { content: 'After the note' });
      expect(after.status).toBe(201);
      await live.until((e) => e.event === 'message.created' && e.data.message.id === after.body.id);
      expect(JSON.stringify(live.events)).not.toContain(marker);
      expect(live.events.map((e) => e.event)).not.toContain('note.added');

      const messages = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token });
      expect(messages.body.data.map((m: { id: string }) => m.id)).toContain(after.body.id);
      expect(messages.text).not.toContain(marker);
      const conversation = await http(`${e2e.url}/v2/conversations/${conversationId}`, { token });
      expect(conversation.text).not.toContain(marker);

      const closed = await http(`${e2e.url}/v2/conversations/${conversationId}/close`, { body: {}, token });
      expect(closed.status).toBe(200);
      const feedUrl = `${e2e.url}/admin/v1/projects/${keys.project.id}/events?limit=500`;
      const analytics = async () =>
        (await http(feedUrl, { token: 'test-admin-token' })).body.data.filter((e: any) => e.conversationId === conversationId);
      await vi.waitFor(async () => expect((await analytics()).map((e: any) => e.type)).toContain('conversation.closed'), POLL);
      const entries = await analytics();
      expect(entries.map((e: any) => e.type)).not.toContain('note.added');
      expect(JSON.stringify(entries)).not.toContain(marker);
      // Webhooks carry exactly the feed's entries of the conversation.
      const hooks = () => receiver.received.filter((h) => h.body.includes(conversationId));
      await vi.waitFor(() => expect(hooks().length).toBe(entries.length), POLL);
      expect(
        hooks()
          .map((h) => h.body)
          .join(''),
      ).not.toContain(marker);

      // The admin export of the visitor's data has the notes apart, under `inbox`, never in a conversation's messages.
      const exported = await e2e.admin.call('GET', `/projects/${keys.project.id}/visitors/${visitorId}/export`);
      expect(exported.conversations.map((c: { id: string }) => c.id)).toEqual([conversationId]);
      expect(JSON.stringify(exported.conversations)).not.toContain(marker);
      expect(exported.inbox).toEqual([{ conversationId, userAgent: expect.any(String), notes: [note.body] }]);
      // Sealed in the event with the conversation's key, with no read model of its own: never on disk in clear.
      expect(await filesContaining(e2e.dataDir, marker)).toEqual([]);
      expect(await filesContaining(e2e.dataDir, 'After the note')).not.toEqual([]);

      // Erased with the conversation.
      const erased = await http(`${e2e.url}/admin/v1/projects/${keys.project.id}/visitors/${visitorId}`, {
        method: 'DELETE',
        token: 'test-admin-token',
      });
      expect(erased.status).toBe(200);
      expect((await agentCall(ada.token, 'GET', notesOf(conversationId))).status).toBe(404);
    } finally {
      live.close();
      feed.close();
    }
  });

  it('never reaches surface B', async () => {
    const marker = `NOTE-B-${randomUUID()}`;
    const chatId = randomUUID();
    const call = (path: string, body?: unknown) =>
      http(`${e2e.url}/api${path}`, { body, method: body ? 'POST' : 'GET', headers: { 'x-service-key': keys.privateKey } });
    const said = await call(`/customers/user-n/chats/${chatId}/chat`, {
      message: { role: 'user', parts: [{ type: 'text', text: 'Hello from the app' }] },
      streaming: false,
    });
    expect(said.status).toBe(200);
    expect((await agentCall(ada.token, 'POST', notesOf(chatId), { content: marker })).status).toBe(201);
    expect((await agentCall(ada.token, 'GET', notesOf(chatId))).body.data.map((n: { content: string }) => n.content)).toEqual([marker]);
    const chat = await call(`/customers/user-n/chats/${chatId}`);
    expect(chat.status).toBe(200);
    expect(chat.text).toContain('Hello from the app');
    expect(chat.text).not.toContain(marker);
    const list = await call('/customers/user-n/chats?filter=all&page=1&pageSize=10');
    expect(list.text).not.toContain(marker);
  });
});
