import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../services/search/src/testing/office-files';
import { asUser, signedInUser } from './support/accounts';
import { type E2eApp, http, newConversation, newVisitor, startE2eApp } from './support/e2e-app';
import { SseClient } from './support/sse';
import { startStaticSite } from './support/static-site';

let e2e: E2eApp;
beforeAll(async () => {
  e2e = await startE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
});
afterAll(() => e2e?.stop());

const admin = (method: string, path: string, body?: unknown) =>
  http(`${e2e.url}/admin/v1${path}`, { method, body, token: e2e.app.adminToken });

/** A project with a signed-in owner, and the owner's admin calls under the project's path. */
const ownedProject = async (email: string) => {
  const owner = await signedInUser(e2e.url, e2e.app.adminToken, email);
  const created = await e2e.admin.createProject();
  const { project } = created;
  await admin('PUT', `/projects/${project.id}/members/${owner.id}`, { role: 'owner' });
  const as = (method: string, path: string, body?: unknown) =>
    asUser(e2e.url, owner.cookie, `/admin/v1/projects/${project.id}${path}`, { method, body });
  const entries = async (action: string) =>
    (await as('GET', `/audit?action=${action}&limit=200`)).body.data as Array<{
      action: string;
      actor: { type: string; id: string };
      target: { type: string; id: string };
      changes?: Record<string, unknown>;
    }>;
  return { owner, project, keys: created, as, entries };
};

/** A visitor's new conversation on the project's publishable key. */
const openConversation = async (publishableKey: string) => {
  const { token, conversationId } = await newConversation(e2e.url, publishableKey);
  return { token, conversationId };
};

const agentCall = (credential: { token?: string; cookie?: string; projectId?: string }, method: string, path: string, body?: unknown) =>
  credential.token
    ? http(`${e2e.url}/agent/v1${path}`, { method, body, token: credential.token })
    : asUser(e2e.url, credential.cookie!, `/agent/v1${path}`, { method, body, headers: { 'x-project-id': credential.projectId! } });

describe('the audit log records changes made outside identity', () => {
  it('webhooks: created, updated, secret rotated, deleted, by the user who made them, without the secret or the URL', async () => {
    const { owner, as, entries } = await ownedProject('wendy@example.com');
    const url = 'http://127.0.0.1:9/hook?token=sekrit-in-url';
    const created = await as('POST', '/webhooks', { url, events: ['feedback.given'] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await as('PATCH', `/webhooks/${id}`, { enabled: false });
    const rotated = await as('POST', `/webhooks/${id}/rotate-secret`);
    await as('DELETE', `/webhooks/${id}`);

    const log = await entries('webhook');
    expect(log.map((e) => e.action)).toEqual(['webhook.deleted', 'webhook.secret-rotated', 'webhook.updated', 'webhook.created']);
    for (const entry of log) {
      expect(entry.actor).toMatchObject({ type: 'user', id: owner.id });
      expect(entry.target).toEqual({ type: 'webhook', id });
    }
    expect(log[2]?.changes).toEqual({ fields: ['enabled'], enabled: false });
    const text = JSON.stringify(log);
    expect(text).not.toContain(created.body.secret);
    expect(text).not.toContain(rotated.body.secret);
    expect(text).not.toContain('sekrit-in-url');
  });

  it('erasures: visitor.erased, by the admin who asked or the service key, with counts and never the content', async () => {
    const { owner, keys, as, entries } = await ownedProject('erin@example.com');
    const { token, visitor } = await newVisitor(e2e.url, keys.publishableKey);
    const conversation = await http(`${e2e.url}/v2/conversations`, { body: { title: 'marker-title-gone' }, token });
    expect(conversation.status).toBe(201);
    expect((await as('DELETE', `/visitors/${visitor.id}`)).status).toBe(200);

    const upserted = await http(`${e2e.url}/api/customers/cust-9`, { body: {}, headers: { 'x-service-key': keys.privateKey } });
    expect(upserted.status).toBe(200);
    const customer = await http(`${e2e.url}/api/customers/cust-9`, { method: 'DELETE', headers: { 'x-service-key': keys.privateKey } });

    const log = await entries('visitor.erased');
    expect(customer.status).toBe(200);
    expect(log).toHaveLength(2);
    const byOwner = log.find((e) => e.target.id === visitor.id);
    expect(byOwner).toMatchObject({ actor: { type: 'user', id: owner.id }, target: { type: 'visitor', id: visitor.id } });
    expect(byOwner?.changes).toMatchObject({ conversations: 1, profileErased: true, by: 'admin' });
    expect(log.find((e) => e.target.id === customer.body.visitorId)).toMatchObject({
      actor: { type: 'api-token' },
      changes: { by: 'api_key', conversations: 0 },
    });
    expect(JSON.stringify(log)).not.toContain('marker-title-gone');
  });

  it('Q&A: created, updated, deleted, by the user who made them, naming the fields but never their text', async () => {
    const { owner, as, entries } = await ownedProject('quinn@example.com');
    const created = await as('POST', '/qnas', { question: 'marker-question?', answer: 'marker-answer.' });
    expect(created.status).toBe(201);
    await as('PATCH', `/qnas/${created.body.id}`, { answer: 'marker-answer-two.' });
    await as('DELETE', `/qnas/${created.body.id}`);
    const log = await entries('qna');
    expect(log.map((e) => e.action)).toEqual(['qna.deleted', 'qna.updated', 'qna.created']);
    for (const entry of log)
      expect(entry).toMatchObject({ actor: { type: 'user', id: owner.id }, target: { type: 'qna', id: created.body.id } });
    expect(log[1]?.changes).toEqual({ fields: ['answer'] });
    expect(JSON.stringify(log)).not.toContain('marker-');
  });

  it('documents: created (also by upload), updated, deleted, by the user who made them, naming the fields but never the text', async () => {
    const { owner, project, as, entries } = await ownedProject('dora@example.com');
    const created = await as('POST', '/documents', { title: 'Returns', url: 'https://shop.example/returns', content: 'marker-content.' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await as('PATCH', `/documents/${id}`, { content: 'marker-content-two.' })).status).toBe(200);
    expect((await as('DELETE', `/documents/${id}`)).status).toBe(204);
    // A refused change leaves no entry.
    expect((await as('PATCH', `/documents/${id}`, { title: 'gone' })).status).toBe(404);

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(makePdf(['marker-pdf-text.'], 'Care'))], { type: 'application/pdf' }), 'care.pdf');
    const uploaded = await fetch(`${e2e.url}/admin/v1/projects/${project.id}/documents/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.app.adminToken}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const uploadedId = ((await uploaded.json()) as { id: string }).id;

    const log = await entries('document');
    expect(log.map((e) => [e.action, e.target.id])).toEqual([
      ['document.created', uploadedId],
      ['document.deleted', id],
      ['document.updated', id],
      ['document.created', id],
    ]);
    expect(log[0]).toMatchObject({ actor: { type: 'admin-token', id: 'admin' }, changes: { via: 'upload' } });
    for (const entry of log.slice(1)) expect(entry.actor).toMatchObject({ type: 'user', id: owner.id });
    expect(log[2]?.changes).toEqual({ fields: ['content'] });
    expect(JSON.stringify(log)).not.toContain('marker-');
  });

  it('sources: created, updated, crawl started, deleted, naming the host and fields, never the full address', async () => {
    const site = await startStaticSite({
      '/': { type: 'text/html', body: '<html><body><main><h1>Hi</h1><p>Open daily.</p></main></body></html>' },
    });
    try {
      const { owner, as, entries } = await ownedProject('sol@example.com');
      const created = await as('POST', '/sources', { type: 'website', url: `${site.origin}/?token=marker-secret` });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await as('PATCH', `/sources/${id}`, { maxPages: 5 })).status).toBe(200);
      expect((await as('POST', `/sources/${id}/sync`)).status).toBe(202);
      expect((await as('DELETE', `/sources/${id}`)).status).toBe(204);

      const log = await entries('source');
      expect(log.map((e) => e.action)).toEqual(['source.deleted', 'source.crawl-started', 'source.updated', 'source.created']);
      for (const entry of log) expect(entry).toMatchObject({ actor: { type: 'user', id: owner.id }, target: { type: 'source', id } });
      expect(log[3]?.changes).toEqual({ host: new URL(site.origin).host });
      expect(log[2]?.changes).toEqual({ fields: ['maxPages'] });
      expect(JSON.stringify(log)).not.toContain('marker-secret');
    } finally {
      await site.close();
    }
  });

  it('handoff actions: requested, assigned and released by an admin, claimed and closed by an agent token and by a user', async () => {
    const { owner, project, keys, as, entries } = await ownedProject('hank@example.com');
    await as('PATCH', '', { handoff: { enabled: true } });
    const ada = (await as('POST', '/agents', { name: 'Ada' })).body as { id: string; token: string };
    const first = await openConversation(keys.publishableKey);
    const second = await openConversation(keys.publishableKey);

    expect((await as('POST', `/conversations/${first.conversationId}/handoff`, {})).status).toBe(200);
    expect((await agentCall({ token: ada.token }, 'POST', '/queue/claim')).body.id).toBe(first.conversationId);
    expect((await agentCall({ token: ada.token }, 'POST', `/conversations/${first.conversationId}/close`, {})).status).toBe(200);
    const asOwner = { cookie: owner.cookie, projectId: project.id };
    expect((await agentCall(asOwner, 'POST', `/conversations/${second.conversationId}/handoff`)).status).toBe(200);
    expect((await agentCall(asOwner, 'POST', `/conversations/${second.conversationId}/release`)).status).toBe(200);
    const assigned = await as('POST', `/conversations/${second.conversationId}/handoff`, { humanAgent: { name: 'Desk', image: null } });
    expect(assigned.status).toBe(200);
    expect((await as('POST', `/conversations/${second.conversationId}/release`)).status).toBe(200);

    const byOwner = { type: 'user', id: owner.id };
    const log = (await entries('handoff')).concat(await entries('conversation'));
    expect(log.map((e) => [e.action, e.target.id, e.actor])).toEqual([
      ['handoff.released', second.conversationId, expect.objectContaining(byOwner)],
      ['handoff.assigned', second.conversationId, expect.objectContaining(byOwner)],
      ['handoff.released', second.conversationId, expect.objectContaining(byOwner)],
      ['handoff.claimed', second.conversationId, expect.objectContaining(byOwner)],
      ['handoff.claimed', first.conversationId, expect.objectContaining({ type: 'agent-token', id: ada.id })],
      ['handoff.requested', first.conversationId, expect.objectContaining(byOwner)],
      ['conversation.closed', first.conversationId, expect.objectContaining({ type: 'agent-token', id: ada.id })],
    ]);
    expect(log[3]?.changes).toEqual({ mode: 'take' });
    expect(log[4]?.changes).toEqual({ mode: 'next' });
    expect(log[1]?.changes).toEqual({ name: 'Desk' });
  });
});

describe('a person who can no longer answer: their conversations go back to the waiting queue', () => {
  /** An agent member working the inbox as themself, holding a conversation a visitor follows live. */
  const heldByMember = async (ownerEmail: string, memberEmail: string) => {
    const team = await ownedProject(ownerEmail);
    await team.as('PATCH', '', { handoff: { enabled: true } });
    const member = await signedInUser(e2e.url, e2e.app.adminToken, memberEmail);
    expect((await team.as('PUT', `/members/${member.id}`, { role: 'agent' })).status).toBe(200);
    const grace = (await team.as('POST', `/agents`, { name: 'Grace' })).body as { token: string };
    const { token, conversationId } = await openConversation(team.keys.publishableKey);
    const asMember = { cookie: member.cookie, projectId: team.project.id };
    expect((await agentCall(asMember, 'POST', `/conversations/${conversationId}/handoff`)).status).toBe(200);
    const visitor = await SseClient.open(`${e2e.url}/v2/conversations/${conversationId}/events`, { authorization: `Bearer ${token}` });
    const feed = await SseClient.open(`${e2e.url}/agent/v1/events`, { authorization: `Bearer ${grace.token}` });
    return { ...team, member, conversationId, visitor, feed, grace };
  };

  const expectRequeued = async (held: Awaited<ReturnType<typeof heldByMember>>, actor: { type: string; id: string }) => {
    const { conversationId, visitor, feed, grace } = held;
    try {
      await visitor.until((e) => e.event === 'handoff.released');
      await visitor.until((e) => e.event === 'handoff.requested');
      await feed.until((e) => e.event === 'handoff.requested' && e.data.conversationId === conversationId);
    } finally {
      visitor.close();
      feed.close();
    }
    const queue = (await agentCall({ token: grace.token }, 'GET', '/queue')).body.data as Array<{ id: string; handoff: string }>;
    expect(queue.map((c) => [c.id, c.handoff])).toEqual([[conversationId, 'waiting']]);
    const log = await held.entries('handoff.requeued');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actor, target: { type: 'conversation', id: conversationId }, changes: { heldBy: held.member.id } });
  };

  it('removing the member requeues what they held, shown to the visitor and the agents, audited under the remover', async () => {
    const held = await heldByMember('rita@example.com', 'mo@example.com');
    expect((await held.as('DELETE', `/members/${held.member.id}`)).status).toBe(200);
    await expectRequeued(held, { type: 'user', id: held.owner.id });
  });

  it('deleting the user requeues what they held in their projects, audited under the admin token', async () => {
    const held = await heldByMember('ruth@example.com', 'max@example.com');
    expect((await admin('DELETE', `/users/${held.member.id}`)).status).toBe(200);
    await expectRequeued(held, { type: 'admin-token', id: 'admin' });
  });
});
