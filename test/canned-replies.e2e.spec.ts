import { describe, expect, it } from 'vitest';
import { asUser, signedInUser } from './support/accounts';
import { http, useE2eApp } from './support/e2e-app';

describe('canned replies (admin and agents API)', () => {
  const e2e = useE2eApp();

  const admin = (projectId: string, method: string, path: string, body?: unknown) =>
    http(`${e2e.url}/admin/v1/projects/${projectId}/canned-replies${path}`, { method, body, token: 'test-admin-token' });

  const setup = async () => {
    const { project } = await e2e.admin.createProject();
    const ada = await e2e.admin.call('POST', `/projects/${project.id}/agents`, { name: 'Ada' });
    return { projectId: project.id as string, ada };
  };

  it('creates, lists by shortcut, updates and deletes, for admins and for agents to read', async () => {
    const { projectId, ada } = await setup();
    const refund = await admin(projectId, 'POST', '', { shortcut: 'refund', title: 'Refunds', content: 'Refunds take 5 days.' });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({ projectId, shortcut: 'refund', title: 'Refunds', content: 'Refunds take 5 days.' });
    expect(refund.body.createdAt).toBe(refund.body.updatedAt);
    await admin(projectId, 'POST', '', { shortcut: 'hello-2', title: 'Greeting', content: 'Hi there!' });
    await admin(projectId, 'POST', '', { shortcut: 'delivery', title: 'Delivery', content: 'We ship in 2 days.' });

    const listed = await admin(projectId, 'GET', '');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { shortcut: string }) => r.shortcut)).toEqual(['delivery', 'hello-2', 'refund']);
    const forAgent = await http(`${e2e.url}/agent/v1/canned-replies`, { token: ada.token });
    expect(forAgent.status).toBe(200);
    expect(forAgent.body).toEqual(listed.body);

    const patched = await admin(projectId, 'PATCH', `/${refund.body.id}`, { content: 'Refunds take 3 days.' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: refund.body.id, shortcut: 'refund', title: 'Refunds', content: 'Refunds take 3 days.' });
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(refund.body.updatedAt));
    // An empty change changes nothing, not even updatedAt.
    expect((await admin(projectId, 'PATCH', `/${refund.body.id}`, {})).body).toEqual(patched.body);
    const renamed = await admin(projectId, 'PATCH', `/${refund.body.id}`, { shortcut: 'refunds' });
    expect(renamed.body.shortcut).toBe('refunds');

    const deleted = await admin(projectId, 'DELETE', `/${refund.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const after = await http(`${e2e.url}/agent/v1/canned-replies`, { token: ada.token });
    expect(after.body.data.map((r: { shortcut: string }) => r.shortcut)).toEqual(['delivery', 'hello-2']);

    // Another project's agent sees its own project's replies only.
    const other = await setup();
    expect((await http(`${e2e.url}/agent/v1/canned-replies`, { token: other.ada.token })).body).toEqual({ data: [] });
  });

  it('answers bad input, a taken shortcut, an unknown reply and a missing credential in the error envelope', async () => {
    const { projectId } = await setup();
    const wrongType = await admin(projectId, 'POST', '', { shortcut: 42, title: 'T', content: 'C' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatchObject({ code: 'INVALID_REQUEST_BODY', details: { field: 'shortcut' } });
    for (const shortcut of ['Refund', '-refund', 'has space', 'x'.repeat(33), '']) {
      const bad = await admin(projectId, 'POST', '', { shortcut, title: 'T', content: 'C' });
      expect(bad.status, shortcut).toBe(422);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'shortcut' } });
    }
    const blank = await admin(projectId, 'POST', '', { shortcut: 'ok', title: '   ', content: 'C' });
    expect(blank.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'title' } });
    const long = await admin(projectId, 'POST', '', { shortcut: 'ok', title: 'T', content: 'c'.repeat(5001) });
    expect(long.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content' } });

    const first = await admin(projectId, 'POST', '', { shortcut: 'refund', title: 'Refunds', content: 'A' });
    const taken = await admin(projectId, 'POST', '', { shortcut: 'refund', title: 'Again', content: 'B' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFLICT', details: { conflictingField: 'shortcut', shortcut: 'refund' } });
    const second = await admin(projectId, 'POST', '', { shortcut: 'refunds', title: 'Refunds', content: 'B' });
    const renamedOnto = await admin(projectId, 'PATCH', `/${second.body.id}`, { shortcut: 'refund' });
    expect(renamedOnto.status).toBe(409);
    expect(renamedOnto.body.error.code).toBe('CONFLICT');
    // The same shortcut in another project is fine.
    const other = await setup();
    expect((await admin(other.projectId, 'POST', '', { shortcut: 'refund', title: 'R', content: 'C' })).status).toBe(201);

    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const method of ['PATCH', 'DELETE']) {
      const missing = await admin(projectId, method, `/${unknown}`, method === 'PATCH' ? { title: 'x' } : undefined);
      expect(missing.status, method).toBe(404);
      expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'canned-reply' } });
    }
    // Another project's reply is not there for this project.
    expect((await admin(other.projectId, 'DELETE', `/${first.body.id}`)).status).toBe(404);
    expect((await admin(projectId, 'DELETE', `/${first.body.id}`)).status).toBe(204);
    expect((await admin(projectId, 'DELETE', `/${first.body.id}`)).status).toBe(404);

    expect((await http(`${e2e.url}/admin/v1/projects/${projectId}/canned-replies`)).status).toBe(401);
    const noAgent = await http(`${e2e.url}/agent/v1/canned-replies`, { token: 'ak_nope' });
    expect(noAgent.status).toBe(401);
    expect(noAgent.body.error.code).toBe('UNAUTHORIZED');
  });

  it('holds at most 500 per project, then answers 422 with the limit', async () => {
    const { projectId } = await setup();
    for (let i = 0; i < 500; i += 50) {
      const batch = Array.from({ length: 50 }, (_, j) => admin(projectId, 'POST', '', { shortcut: `r${i + j}`, title: 'T', content: 'C' }));
      for (const created of await Promise.all(batch)) expect(created.status).toBe(201);
    }
    const over = await admin(projectId, 'POST', '', { shortcut: 'one-more', title: 'T', content: 'C' });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { limit: 'cannedRepliesPerProject', max: 500 } });
    expect((await admin(projectId, 'GET', '')).body.data).toHaveLength(500);
  }, 60_000);

  it('lets agents read and owners and admins manage; an agent member is 403 on changes; each change is audited', async () => {
    const { projectId } = await setup();
    const roles = {} as Record<'admin' | 'agent' | 'analyst', string>;
    for (const role of ['admin', 'agent', 'analyst'] as const) {
      const user = await signedInUser(e2e.url, e2e.app.adminToken, `${role}-${projectId.slice(0, 8)}@example.com`);
      await e2e.admin.call('PUT', `/projects/${projectId}/members/${user.id}`, { role });
      roles[role] = user.cookie;
    }
    const path = `/admin/v1/projects/${projectId}/canned-replies`;
    const created = await asUser(e2e.url, roles.admin, path, { method: 'POST', body: { shortcut: 'hi', title: 'Hi', content: 'Hello!' } });
    expect(created.status).toBe(201);
    expect((await asUser(e2e.url, roles.agent, path)).body.data).toHaveLength(1);
    // A member agent reads them through the agents' API too (session cookie and X-Project-Id).
    const viaAgentApi = await asUser(e2e.url, roles.agent, '/agent/v1/canned-replies', { headers: { 'x-project-id': projectId } });
    expect(viaAgentApi.status).toBe(200);
    expect(viaAgentApi.body.data[0].shortcut).toBe('hi');
    const refused = await asUser(e2e.url, roles.agent, path, { method: 'POST', body: { shortcut: 'no', title: 'No', content: 'No' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await asUser(e2e.url, roles.agent, `${path}/${created.body.id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await asUser(e2e.url, roles.analyst, path)).status).toBe(403);

    await asUser(e2e.url, roles.admin, `${path}/${created.body.id}`, { method: 'PATCH', body: { title: 'Hello' } });
    await asUser(e2e.url, roles.admin, `${path}/${created.body.id}`, { method: 'DELETE' });
    const audit = await e2e.admin.call('GET', `/projects/${projectId}/audit?action=canned-reply`);
    const entries = audit.data.map((e: { action: string; target: { id: string }; changes?: object }) => ({
      action: e.action,
      target: e.target.id,
      changes: e.changes,
    }));
    expect(entries.map((e: { action: string }) => e.action).sort()).toEqual([
      'canned-reply.created',
      'canned-reply.deleted',
      'canned-reply.updated',
    ]);
    for (const entry of entries) expect(entry.target).toBe(created.body.id);
    expect(JSON.stringify(audit)).not.toContain('Hello!');
  });
});
