import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, cookieOf, PASSWORD, signedInUser } from './support/accounts';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';

let e2e: E2eApp;
beforeAll(async () => {
  e2e = await startE2eApp();
});
afterAll(() => e2e?.stop());

const admin = (method: string, path: string, body?: unknown) =>
  http(`${e2e.url}/admin/v1${path}`, { method, body, token: e2e.app.adminToken });

describe('users and invitations over HTTP', () => {
  it('invites a colleague, who sets a password at the link and is signed in; the link works once', async () => {
    const created = await admin('POST', '/users', { email: 'Bo@Example.com', name: 'Bo' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'bo@example.com', status: 'invited' });
    const link = new URL(created.body.invitation.url);
    expect(`${link.origin}${link.pathname}`).toBe(`${e2e.url}/dashboard/accept-invite`);
    const token = link.searchParams.get('token')!;
    const weak = await http(`${e2e.url}/auth/v1/accept-invite`, { body: { token, password: 'short' } });
    expect([weak.status, weak.body.error.code]).toEqual([422, 'VALIDATION_ERROR']);
    const accepted = await http(`${e2e.url}/auth/v1/accept-invite`, { body: { token, password: PASSWORD } });
    expect(accepted.status).toBe(200);
    const me = await asUser(e2e.url, cookieOf(accepted), '/auth/v1/me');
    expect(me.body).toEqual({ id: created.body.id, email: 'bo@example.com', name: 'Bo', image: null, memberships: [] });
    expect((await http(`${e2e.url}/auth/v1/accept-invite`, { body: { token, password: PASSWORD } })).status).toBe(401);
    // No answer ever carries a hash.
    expect((await admin('GET', '/users')).text).not.toMatch(/argon2|passwordHash/);
  });

  it('signs out: the cookie is cleared and no longer works', async () => {
    const { cookie } = await signedInUser(e2e.url, e2e.app.adminToken, 'cy@example.com');
    expect((await asUser(e2e.url, cookie, '/auth/v1/me')).status).toBe(200);
    const out = await asUser(e2e.url, cookie, '/auth/v1/logout', { method: 'POST' });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/palaver_session=;.*Max-Age=0/);
    expect((await asUser(e2e.url, cookie, '/auth/v1/me')).status).toBe(401);
  });

  it('a personal API token acts with its user roles, and stops when revoked', async () => {
    const { id, cookie } = await signedInUser(e2e.url, e2e.app.adminToken, 'dee@example.com');
    const { project } = await e2e.admin.createProject();
    await admin('PUT', `/projects/${project.id}/members/${id}`, { role: 'analyst' });
    const created = await asUser(e2e.url, cookie, '/auth/v1/tokens', { body: { name: 'reports' } });
    expect(created.status).toBe(201);
    const pat = created.body.token as string;
    expect((await http(`${e2e.url}/admin/v1/projects/${project.id}/analytics/feedback`, { token: pat })).status).toBe(200);
    expect((await http(`${e2e.url}/admin/v1/projects/${project.id}/keys`, { token: pat })).status).toBe(403);
    await asUser(e2e.url, cookie, `/auth/v1/tokens/${created.body.id}`, { method: 'DELETE' });
    expect((await http(`${e2e.url}/admin/v1/projects/${project.id}/analytics/feedback`, { token: pat })).status).toBe(401);
  });
});

describe('sign-in throttling', () => {
  it('answers a wrong password and an unknown email alike, then 429 with Retry-After after 5 failures', async () => {
    // Its own app: the failures count against this machine's address too.
    const throttledApp = await startE2eApp();
    const e2e = throttledApp;
    const admin = (method: string, path: string, body?: unknown) =>
      http(`${e2e.url}/admin/v1${path}`, { method, body, token: e2e.app.adminToken });
    await admin('POST', '/users', { email: 'eve@example.com', name: 'Eve', password: PASSWORD });
    const unknown = await http(`${e2e.url}/auth/v1/login`, { body: { email: 'nobody@example.com', password: PASSWORD } });
    const wrong = await http(`${e2e.url}/auth/v1/login`, { body: { email: 'eve@example.com', password: 'wrong-password-1' } });
    expect([unknown.status, unknown.text]).toEqual([wrong.status, wrong.text]);
    for (let i = 0; i < 3; i++)
      await http(`${e2e.url}/auth/v1/login`, { body: { email: 'eve@example.com', password: 'wrong-password-1' } });
    const throttled = await http(`${e2e.url}/auth/v1/login`, { body: { email: 'eve@example.com', password: PASSWORD } });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account from the same address is refused as well: the address has had its five.
    await admin('POST', '/users', { email: 'fay@example.com', name: 'Fay', password: PASSWORD });
    expect((await http(`${e2e.url}/auth/v1/login`, { body: { email: 'fay@example.com', password: PASSWORD } })).status).toBe(429);
    await throttledApp.stop();
  });
});

describe('the audit log', () => {
  it('records each kind of identity change with its actor, never a secret, and filters', async () => {
    const owner = await signedInUser(e2e.url, e2e.app.adminToken, 'flo@example.com');
    const { project } = await e2e.admin.createProject();
    const p = `/admin/v1/projects/${project.id}`;
    await admin('PUT', `/projects/${project.id}/members/${owner.id}`, { role: 'owner' });
    const as = (method: string, path: string, body?: unknown) => asUser(e2e.url, owner.cookie, `${p}${path}`, { method, body });
    const key = (await as('POST', '/keys', { type: 'private', name: 'server' })).body;
    await as('DELETE', `/keys/${key.id}`);
    const assistant = (await as('POST', '/assistants', { name: 'Sales' })).body;
    await as('PATCH', `/assistants/${assistant.id}`, { instructions: 'Be brief.' });
    await as('PATCH', '', { chatWidgetConfig: { primaryColor: '#112233' } });
    await as('PATCH', '', { name: 'Renamed' });
    const secret = (await as('POST', '/identity-secret')).body;
    const agentUser = await signedInUser(e2e.url, e2e.app.adminToken, 'gus@example.com');
    await as('PUT', `/members/${agentUser.id}`, { role: 'agent' });
    await as('PUT', `/members/${agentUser.id}`, { role: 'analyst' });
    await as('DELETE', `/members/${agentUser.id}`);

    const log = await as('GET', '/audit?limit=200');
    expect(log.status).toBe(200);
    const actions = log.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual([
      'member.removed',
      'member.role-changed',
      'member.added',
      'identity-secret.rotated',
      'project.updated',
      'widget-settings.updated',
      'assistant.updated',
      'assistant.created',
      'key.revoked',
      'key.created',
      'member.added',
      'key.created',
      'key.created',
      'project.created',
    ]);
    expect(log.body.data[0].actor).toEqual({ type: 'user', id: owner.id, email: 'flo@example.com' });
    expect(log.body.data.at(-1).actor).toEqual({ type: 'admin-token', id: 'admin', email: null });
    expect(log.text).not.toContain(key.key);
    expect(log.text).not.toContain(secret.secret);

    const keys = await as('GET', '/audit?action=key&limit=2');
    expect(keys.body.data.map((e: { action: string }) => e.action)).toEqual(['key.revoked', 'key.created']);
    const next = await as('GET', `/audit?action=key&limit=2&cursor=${keys.body.nextCursor}`);
    expect(next.body.data.map((e: { action: string }) => e.action)).toEqual(['key.created', 'key.created']);
    const mine = await as('GET', `/audit?actor=${owner.id}&action=member.added`);
    expect(mine.body.data).toHaveLength(1);
    const future = await as('GET', '/audit?from=2999-01-01T00:00:00.000Z');
    expect(future.body.data).toEqual([]);
  });
});
