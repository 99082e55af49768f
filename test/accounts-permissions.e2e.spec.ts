import { randomUUID } from 'node:crypto';
import { isProjectPermission, type Permission, ROLE_PERMISSIONS, type Role } from '@palaver/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, signedInUser } from './support/accounts';
import { type E2eApp, http, startE2eApp } from './support/e2e-app';

let e2e: E2eApp;
let projectId: string;
/** The project the owner deletes when the table reaches the deletion route (the others keep theirs). */
let doomedId: string;
const cookies = {} as Record<Role | 'outsider', string>;
const ROLES: Role[] = ['owner', 'admin', 'agent', 'analyst'];

beforeAll(async () => {
  e2e = await startE2eApp();
  projectId = (await e2e.admin.createProject()).project.id;
  doomedId = (await e2e.admin.createProject({ name: 'Doomed' })).project.id;
  for (const role of ROLES) {
    const user = await signedInUser(e2e.url, e2e.app.adminToken, `${role}@example.com`);
    await e2e.admin.call('PUT', `/projects/${projectId}/members/${user.id}`, { role });
    await e2e.admin.call('PUT', `/projects/${doomedId}/members/${user.id}`, { role });
    cookies[role] = user.cookie;
  }
  cookies.outsider = (await signedInUser(e2e.url, e2e.app.adminToken, 'outsider@example.com')).cookie;
}, 60_000);

afterAll(() => e2e?.stop());

interface AdminRoute {
  method: string;
  path: string;
  permission: Permission | undefined;
}

/** Every admin route the server documents, with the permission it declares. */
const adminRoutes = async (): Promise<AdminRoute[]> => {
  const doc = (await http(`${e2e.url}/openapi.json`)).body as {
    paths: Record<string, Record<string, { security?: Array<Record<string, unknown>>; 'x-permission'?: Permission }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => op.security?.some((s) => 'adminToken' in s))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, permission: op['x-permission'] })),
  );
};

const concrete = (path: string, project: string): string => path.replace('{projectId}', project).replace(/\{\w+\}/g, () => randomUUID());

const deletesProject = (route: AdminRoute): boolean => route.method === 'DELETE' && route.path === '/admin/v1/projects/{projectId}';

const call = (who: Role | 'outsider', route: AdminRoute) =>
  asUser(e2e.url, cookies[who], concrete(route.path, deletesProject(route) ? doomedId : projectId), {
    method: route.method,
    ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { body: {} } : {}),
  });

describe('the permission matrix, over every admin route and role', () => {
  it('every admin route declares a permission', async () => {
    const routes = await adminRoutes();
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('answers 403 FORBIDDEN where the role lacks the permission, and lets the request through where it has it', async () => {
    const mismatches: string[] = [];
    for (const route of await adminRoutes()) {
      // The owner deletes the project: the other roles are refused first.
      for (const role of deletesProject(route) ? [...ROLES.filter((r) => r !== 'owner'), 'owner' as const] : ROLES) {
        const permission = route.permission!;
        const allowed = isProjectPermission(permission)
          ? ROLE_PERMISSIONS[role].includes(permission)
          : permission === 'global.projects.list' || role === 'owner';
        const result = await call(role, route);
        const refused = result.status === 403 && result.body?.error?.code === 'FORBIDDEN';
        const hidden = result.body?.error?.code === 'PROJECT_NOT_FOUND';
        if (allowed === refused || hidden || result.status === 401) {
          mismatches.push(`${role} ${route.method} ${route.path} (${permission}) -> ${result.status} ${result.text.slice(0, 120)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('answers 404 for a project the user has no role in, whatever the route', async () => {
    const leaks: string[] = [];
    for (const route of (await adminRoutes()).filter((r) => r.path.includes('{projectId}'))) {
      const result = await call('outsider', route);
      if (result.status !== 404 || result.body?.error?.code !== 'PROJECT_NOT_FOUND')
        leaks.push(`${route.method} ${route.path} -> ${result.status}`);
    }
    expect(leaks).toEqual([]);
  }, 60_000);

  it('lists to a user only the projects they have a role in; the admin token sees all', async () => {
    const other = await e2e.admin.createProject({ name: 'Not theirs' });
    const mine = await asUser(e2e.url, cookies.agent, '/admin/v1/projects');
    // The other project it was in, the owner deleted (the table's deletion route).
    expect(mine.body.data.map((p: { id: string }) => p.id)).toEqual([projectId]);
    expect((await e2e.admin.call('GET', '/projects')).data.map((p: { id: string }) => p.id)).toContain(other.project.id);
  });

  it('keeps /metrics to the admin token', async () => {
    expect((await asUser(e2e.url, cookies.owner, '/metrics')).status).toBe(403);
  });
});

describe('cookie safety', () => {
  it('refuses a state-changing cookie request from another origin or without one, and allows reads', async () => {
    const path = `/admin/v1/projects/${projectId}/assistants`;
    const body = { name: 'Sales' };
    const cross = await http(`${e2e.url}${path}`, { body, headers: { cookie: cookies.owner, origin: 'https://evil.example' } });
    expect([cross.status, cross.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const site = await http(`${e2e.url}${path}`, {
      body,
      headers: { cookie: cookies.owner, 'sec-fetch-site': 'cross-site', origin: e2e.url },
    });
    expect(site.status).toBe(403);
    expect((await http(`${e2e.url}${path}`, { body, headers: { cookie: cookies.owner } })).status).toBe(403);
    expect((await http(`${e2e.url}${path}`, { headers: { cookie: cookies.owner, origin: 'https://evil.example' } })).status).toBe(200);
    const same = await http(`${e2e.url}${path}`, { body, headers: { cookie: cookies.owner, 'sec-fetch-site': 'same-origin' } });
    expect(same.status).toBe(201);
  });

  it('sets the cookie httpOnly and SameSite=Lax, Secure behind https, and serves the dashboard with a CSP', async () => {
    const login = await http(`${e2e.url}/auth/v1/login`, {
      body: { email: 'owner@example.com', password: 'violet-kettle-92-harbour' },
      headers: { 'x-forwarded-proto': 'https' },
    });
    const cookie = login.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Max-Age=\d+/);
    const page = await http(`${e2e.url}/dashboard/`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
