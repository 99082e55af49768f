import { Project } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { http, newVisitor, useE2eApp } from './support/e2e-app';

describe('keys: hashed at rest, private ones shown once, origins, revocation', () => {
  const e2e = useE2eApp();

  it('shows a private key only at creation, and lists a publishable key (public by design) whole', async () => {
    const { project, publishableKey, privateKey } = await e2e.admin.createProject();
    expect(publishableKey).toMatch(/^pk_/);
    expect(privateKey).toMatch(/^sk_/);
    const listed = await e2e.admin.call('GET', `/projects/${project.id}/keys`);
    expect(listed.data).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(privateKey);
    const byType = Object.fromEntries(listed.data.map((k: { type: string }) => [k.type, k]));
    expect(byType.publishable.key).toBe(publishableKey);
    expect('key' in byType.private).toBe(false);
  });

  it('revoking a key stops it and every session made with it at once', async () => {
    const { project, publishableKey, publishableKeyId } = await e2e.admin.createProject();
    const { token } = await newVisitor(e2e.url, publishableKey);
    expect((await http(`${e2e.url}/v2/identity/me`, { token })).status).toBe(200);

    await e2e.admin.call('DELETE', `/projects/${project.id}/keys/${publishableKeyId}`);
    expect((await http(`${e2e.url}/v2/identity/me`, { token })).status).toBe(401);
    expect((await http(`${e2e.url}/v2/conversations`, { token })).status).toBe(401);
    const init = await http(`${e2e.url}/v2/identity/init`, { body: { apiKey: publishableKey, saVid: 'x' } });
    expect(init.status).toBe(401);
    expect((await http(`${e2e.url}/v2/projects/current?apiKey=${publishableKey}`)).status).toBe(401);
  });

  it('a key restricted to origins rejects other origins (403) and answers CORS for its own', async () => {
    const allowed = 'https://shop.example';
    const { publishableKey } = await e2e.admin.createProject({ allowedOrigins: [allowed] });
    const init = (origin?: string) =>
      http(`${e2e.url}/v2/identity/init`, {
        body: { apiKey: publishableKey, saVid: 'origin-device' },
        headers: origin ? { origin } : {},
      });

    const ok = await init(allowed);
    expect(ok.status).toBe(201);
    expect(ok.headers.get('access-control-allow-origin')).toBe(allowed);
    const denied = await init('https://evil.example');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');

    const token = ok.body.sessionToken;
    expect((await http(`${e2e.url}/v2/identity/me`, { token, headers: { origin: allowed } })).status).toBe(200);
    expect((await http(`${e2e.url}/v2/identity/me`, { token, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect(
      (await http(`${e2e.url}/v2/projects/current?apiKey=${publishableKey}`, { headers: { origin: 'https://evil.example' } })).status,
    ).toBe(403);

    // A preflight carries no body or token: it is judged by the key in its URL when it has one,
    // else by every live key of the install (other tests' projects here allow any origin).
    const preflight = (path: string, origin: string) =>
      fetch(`${e2e.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const current = `/v2/projects/current?apiKey=${publishableKey}`;
    const good = await preflight(current, allowed);
    expect(good.status).toBe(204);
    expect(good.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(good.headers.get('access-control-allow-methods')).toContain('POST');
    const bad = await preflight(current, 'https://evil.example');
    expect(bad.status).toBe(403);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight('/v2/identity/init', allowed)).status).toBe(204);
  });

  it('the project of a publishable key, with the complete widget config', async () => {
    const { project, publishableKey, privateKey } = await e2e.admin.createProject();
    const current = await http(`${e2e.url}/v2/projects/current?apiKey=${publishableKey}`);
    expect(current.status).toBe(200);
    expect(Project.strict().parse(current.body)).toMatchObject({ id: project.id, name: project.name, description: '' });
    // The spec's four fields, plus quickPrompts (an extension, docs/api.md).
    expect(Object.keys(current.body).sort()).toEqual(['chatWidgetConfig', 'description', 'humanAgents', 'id', 'name', 'quickPrompts']);
    expect(current.body.chatWidgetConfig).toMatchObject({ position: 'bottom-right', offset: { x: 20, y: 20 } });
    expect((await http(`${e2e.url}/v2/projects/current?apiKey=${privateKey}`)).status).toBe(403);
    // A missing apiKey is a missing credential: 401, like the spec says of credentials.
    expect((await http(`${e2e.url}/v2/projects/current`)).status).toBe(401);
  });
});

describe('CORS preflight on an install whose keys are all restricted', () => {
  const e2e = useE2eApp();

  it('answers origins some key allows, and 403 for the others', async () => {
    await e2e.admin.createProject({ allowedOrigins: ['https://shop.example'] });
    const preflight = (origin: string) =>
      fetch(`${e2e.url}/v2/identity/init`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight('https://shop.example')).status).toBe(204);
    const bad = await preflight('https://evil.example');
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
  });
});
