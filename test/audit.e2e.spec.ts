import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, signedInUser } from './support/accounts';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

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
});
