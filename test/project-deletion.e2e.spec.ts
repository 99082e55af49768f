import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asUser, signedInUser } from './support/accounts';
import { filesContaining } from './support/data-dir-grep';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { natsAndRedisAvailable, natsAndRedisTitle } from './support/nats-and-redis';
import { useTwoGatewaysOnNatsAndRedis } from './support/second-gateway';

/**
 * Deleting a project end to end (docs/accounts.md, docs/privacy.md): its credentials stop at
 * once, every route naming it answers 404, and what its visitors wrote, their profiles, its knowledge and its webhooks leave
 * every file of DATA_DIR.
 */
describe('DELETE /admin/v1/projects/{projectId}', () => {
  let e2e: E2eApp;
  beforeAll(async () => {
    // The webhook's receiver is on loopback.
    e2e = await startE2eApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  }, 60_000);
  afterAll(() => e2e?.stop());

  const admin = (method: string, path: string, body?: unknown) =>
    http(`${e2e.url}/admin/v1${path}`, { method, body, token: 'test-admin-token' });

  it('an owner deletes it: keys, sessions and agents refused at once, 404 everywhere, its conversations, visitors, knowledge and webhooks erased from disk', async () => {
    const marker = `MARKER-${randomUUID()}`;
    const knowledgeMarker = `KNOWLEDGE-${randomUUID()}`;
    const keys = await e2e.admin.createProject({ name: 'Doomed shop' });
    const kept = await e2e.admin.createProject({ name: 'Kept shop' });
    const p = keys.project.id as string;

    const owner = await signedInUser(e2e.url, e2e.app.adminToken, 'olga@example.com');
    const adminUser = await signedInUser(e2e.url, e2e.app.adminToken, 'adam@example.com');
    await e2e.admin.call('PUT', `/projects/${p}/members/${owner.id}`, { role: 'owner' });
    await e2e.admin.call('PUT', `/projects/${kept.project.id}/members/${owner.id}`, { role: 'owner' });
    await e2e.admin.call('PUT', `/projects/${p}/members/${adminUser.id}`, { role: 'admin' });
    const pat = (await asUser(e2e.url, owner.cookie, '/auth/v1/tokens', { body: { name: 'scripts' } })).body.token as string;
    const agent = await e2e.admin.call('POST', `/projects/${p}/agents`, { name: 'Ada' });
    await e2e.admin.call('POST', `/projects/${p}/canned-replies`, { shortcut: 'hi', title: 'Hi', content: 'Hello there' });
    await e2e.admin.call('POST', `/projects/${p}/qnas`, {
      question: `What is ${knowledgeMarker}?`,
      answer: `It is ${knowledgeMarker}.`,
      createdBy: { name: 'Sam', image: null },
    });

    const webhookMarker = `HOOK-${randomUUID()}`;
    const webhook = await admin('POST', `/projects/${p}/webhooks`, {
      url: `http://127.0.0.1:9/hook?ref=${webhookMarker}`,
      events: ['feedback.given'],
    });
    expect(webhook.status).toBe(201);
    const { token } = await newVisitor(e2e.url, keys.publishableKey);
    const conversation = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body;
    const sent = await http(`${e2e.url}/v2/conversations/${conversation.id}/messages`, {
      body: { content: `My code is ${marker}` },
      token,
    });
    expect(sent.status).toBe(200);
    // The visitor's profile holds a marker too: their email.
    const emailMarker = `mail-${randomUUID()}@example.com`;
    const contact = await http(`${e2e.url}/v2/conversations/${conversation.id}/contact`, { body: { email: emailMarker }, token });
    expect(contact.status).toBe(200);
    // On disk before: the check after can fail.
    await vi.waitFor(async () => expect(await filesContaining(e2e.dataDir, marker)).not.toEqual([]), { timeout: 10_000, interval: 200 });
    expect(await filesContaining(e2e.dataDir, knowledgeMarker)).not.toEqual([]);
    expect(await filesContaining(e2e.dataDir, emailMarker)).not.toEqual([]);
    expect(await filesContaining(e2e.dataDir, webhookMarker)).not.toEqual([]);
    expect((await http(`${e2e.url}/agent/v1/queue`, { token: agent.token })).status).toBe(200);

    // An admin of the project may not delete it.
    const refused = await asUser(e2e.url, adminUser.cookie, `/admin/v1/projects/${p}`, { method: 'DELETE' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);

    const deleted = await asUser(e2e.url, owner.cookie, `/admin/v1/projects/${p}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);

    // At once: the keys, the visitor's session and the agent token are refused as revoked ones are.
    expect((await http(`${e2e.url}/v2/conversations/${conversation.id}`, { token })).status).toBe(401);
    expect((await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: keys.publishableKey, saVid: 'device-after' } })).status).toBe(401);
    expect((await http(`${e2e.url}/api/customers/c1/chats`, { headers: { 'x-service-key': keys.privateKey } })).status).toBe(401);
    expect((await http(`${e2e.url}/agent/v1/queue`, { token: agent.token })).status).toBe(401);

    // Every admin read answers 404, to the admin token as to its former owner; it is in no list.
    for (const path of [`/projects/${p}`, `/projects/${p}/keys`, `/projects/${p}/conversations`, `/projects/${p}/qnas`]) {
      const read = await admin('GET', path);
      expect([path, read.status, read.body.error?.code]).toEqual([path, 404, 'PROJECT_NOT_FOUND']);
    }
    expect((await asUser(e2e.url, owner.cookie, `/admin/v1/projects/${p}`)).status).toBe(404);
    expect((await admin('GET', '/projects')).body.data.map((x: { id: string }) => x.id)).not.toContain(p);
    const me = (await asUser(e2e.url, owner.cookie, '/auth/v1/me')).body;
    expect(me.memberships.map((m: { projectId: string }) => m.projectId)).toEqual([kept.project.id]);
    // The personal API token still works for the owner's other project.
    expect((await http(`${e2e.url}/admin/v1/projects/${kept.project.id}`, { token: pat })).status).toBe(200);
    expect((await http(`${e2e.url}/admin/v1/projects/${p}`, { token: pat })).status).toBe(404);

    // Deleting again: nothing to delete.
    const again = await admin('DELETE', `/projects/${p}`);
    expect([again.status, again.body.error?.code]).toEqual([404, 'PROJECT_NOT_FOUND']);

    // The audit log keeps the deletion, readable by the admin token.
    const audit = await admin('GET', `/projects/${p}/audit?action=project.deleted`);
    expect(audit.status).toBe(200);
    expect(audit.body.data).toMatchObject([
      { projectId: p, action: 'project.deleted', actor: { type: 'user', id: owner.id }, target: { type: 'project', id: p } },
    ]);

    // Erased in the background: no file of DATA_DIR holds the conversation's text or the Q&A any more.
    await vi.waitFor(
      async () => {
        expect(await filesContaining(e2e.dataDir, marker)).toEqual([]);
        expect(await filesContaining(e2e.dataDir, knowledgeMarker)).toEqual([]);
        expect(await filesContaining(e2e.dataDir, emailMarker)).toEqual([]);
        expect(await filesContaining(e2e.dataDir, webhookMarker)).toEqual([]);
      },
      { timeout: 20_000, interval: 500 },
    );
    // The other project is untouched.
    expect((await admin('GET', `/projects/${kept.project.id}`)).status).toBe(200);
  }, 90_000);
});

describe.skipIf(!natsAndRedisAvailable)(natsAndRedisTitle('deleting a project across two gateways'), () => {
  const { e2e, second } = useTwoGatewaysOnNatsAndRedis();

  it("the other gateway, whose cache holds the project's key, session and record, refuses them as soon as the deletion answers", async () => {
    const keys = await e2e.admin.createProject({ name: 'Doomed elsewhere' });
    const p = keys.project.id as string;
    const { token } = await newVisitor(second.url, keys.publishableKey);
    const conversation = (await http(`${second.url}/v2/conversations`, { body: {}, token })).body;
    // Read twice on the second gateway: its cache holds the session, the keys and the project.
    for (let i = 0; i < 2; i++) {
      expect((await http(`${second.url}/v2/conversations/${conversation.id}`, { token })).status).toBe(200);
      // The key is accepted: the customer is unknown, nothing else.
      const chats = await http(`${second.url}/api/customers/c1/chats`, { headers: { 'x-service-key': keys.privateKey } });
      expect([chats.status, chats.body.error?.code]).toEqual([404, 'NOT_FOUND']);
      expect((await http(`${second.url}/admin/v1/projects/${p}`, { token: e2e.app.adminToken })).status).toBe(200);
    }

    expect((await http(`${e2e.url}/admin/v1/projects/${p}`, { method: 'DELETE', token: e2e.app.adminToken })).status).toBe(204);

    expect((await http(`${second.url}/v2/conversations/${conversation.id}`, { token })).status).toBe(401);
    expect((await http(`${second.url}/api/customers/c1/chats`, { headers: { 'x-service-key': keys.privateKey } })).status).toBe(401);
    expect((await http(`${second.url}/admin/v1/projects/${p}`, { token: e2e.app.adminToken })).status).toBe(404);
  });
});
