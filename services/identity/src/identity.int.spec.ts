import { createHash, randomUUID } from 'node:crypto';
import {
  ConversationMessages,
  IDENTITY_CHANGES_CHANNEL,
  IdentityMessages as M,
  type ProjectRecord,
  type RequestOf,
  type ServiceMessage,
} from '@palaver/contracts';
import { rejection, useServiceUnderTest } from '@palaver/platform/testing';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { startIdentityService } from './index';

const IDLE_TTL_SECONDS = 60;

const identity = useServiceUnderTest(startIdentityService, { SESSION_IDLE_TTL_SECONDS: IDLE_TTL_SECONDS });

const send = <Msg extends ServiceMessage>(message: Msg, request: RequestOf<Msg>) => identity.infra.services.send(message, request);

/** What the gateway does on `POST /v2/identity/init`: resolve the publishable key, then init with it. */
const initVisitor = async (apiKey: string, saVid: string, origin: string | null) => {
  const key = await send(M.resolveKey, { key: apiKey, origin, type: 'publishable' });
  return send(M.initVisitor, { key: { ...key, type: 'publishable' }, saVid });
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const newProject = (name = 'Shop') => send(M.createProject, { name });

const publishableKey = async (project: ProjectRecord, allowedOrigins: string[] = []) =>
  send(M.createKey, {
    projectId: project.id,
    body: { type: 'publishable', name: 'widget', assistantId: project.defaultAssistantId!, allowedOrigins },
  });

const privateKey = (project: ProjectRecord) => send(M.createKey, { projectId: project.id, body: { type: 'private', name: 'server' } });

describe('identity service: projects', () => {
  it('answers health', async () => {
    expect(await send(M.health, {})).toEqual({ ok: true });
  });

  it('creates a project with defaults and a default assistant', async () => {
    const project = await newProject();
    expect(project).toMatchObject({
      name: 'Shop',
      description: '',
      plan: 'enterprise',
      limits: { messagesPerMinute: null, monthlyMessages: null },
      quickPrompts: [],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(project.chatWidgetConfig.welcomeMessage).toBe('Hi! How can I help you today?');
    const assistant = await send(M.getAssistant, { projectId: project.id, assistantId: null });
    expect(assistant).toMatchObject({ id: project.defaultAssistantId, projectId: project.id, name: 'Assistant', model: null });
    expect(assistant.instructions.length).toBeGreaterThan(0);
    expect(await send(M.getProject, { projectId: project.id })).toEqual(project);
  });

  it('keeps what the creator gives and ids the quick prompts', async () => {
    const body: RequestOf<typeof M.createProject> = {
      name: 'Docs',
      description: 'Product docs',
      plan: 'pro',
      limits: { messagesPerMinute: 30 },
      chatWidgetConfig: { brandColor: '#000000', offset: { x: 1, y: 2 } },
      quickPrompts: [{ title: 'Pricing', prompt: 'What does it cost?' }],
    };
    const project = await send(M.createProject, body);
    // What the body leaves out takes its default.
    expect(project).toMatchObject({
      ...body,
      limits: { ...body.limits, monthlyMessages: null },
      chatWidgetConfig: { ...body.chatWidgetConfig, position: 'bottom-right' },
    });
    expect(project.quickPrompts[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('patches a project field by field', async () => {
    const created = await send(M.createProject, {
      name: 'Shop',
      limits: { messagesPerMinute: 10, monthlyMessages: 1000 },
      chatWidgetConfig: { displayName: 'Helper' },
      quickPrompts: [{ title: 'a', prompt: 'a' }],
    });
    identity.clock.advance(5_000);
    const patch: RequestOf<typeof M.updateProject>['patch'] = {
      description: 'new',
      limits: { monthlyMessages: null },
      chatWidgetConfig: { brandColor: '#123456', offset: { x: 7, y: 8 } },
      quickPrompts: [{ title: 'b', prompt: 'b' }],
    };
    const updated = await send(M.updateProject, { projectId: created.id, patch });
    // Each field the patch names is merged into the stored one; the others stay.
    expect(updated).toMatchObject({
      ...patch,
      name: 'Shop',
      limits: { messagesPerMinute: 10, ...patch.limits },
      chatWidgetConfig: { displayName: 'Helper', ...patch.chatWidgetConfig },
      createdAt: created.createdAt,
      updatedAt: '2026-01-01T00:00:05.000Z',
    });
    expect(updated.quickPrompts).toHaveLength(1);
    expect(await send(M.getProject, { projectId: created.id })).toEqual(updated);
  });

  it('lists projects and answers PROJECT_NOT_FOUND with the id', async () => {
    const a = await newProject('A');
    identity.clock.advance(1);
    const b = await newProject('B');
    expect((await send(M.listProjects, {})).data.map((p) => p.id)).toEqual([a.id, b.id]);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const call of [
      send(M.getProject, { projectId: missing }),
      send(M.updateProject, { projectId: missing, patch: { name: 'x' } }),
      send(M.listKeys, { projectId: missing }),
      send(M.listAssistants, { projectId: missing }),
      send(M.createAssistant, { projectId: missing, body: { name: 'x' } }),
    ]) {
      const err = await rejection(call);
      expect(err.code).toBe('PROJECT_NOT_FOUND');
      expect(err.details).toEqual({ projectId: missing });
    }
  });
});

describe('identity service: assistants', () => {
  it('creates, lists and gets assistants within their project only', async () => {
    const project = await newProject();
    const other = await newProject('Other');
    identity.clock.advance(1);
    const sales = await send(M.createAssistant, {
      projectId: project.id,
      body: { name: 'Sales', instructions: 'Sell.', model: 'gpt-4o-mini' },
    });
    expect(sales).toMatchObject({ projectId: project.id, name: 'Sales', instructions: 'Sell.', model: 'gpt-4o-mini' });
    expect((await send(M.listAssistants, { projectId: project.id })).data.map((a) => a.id)).toEqual([project.defaultAssistantId, sales.id]);
    expect(await send(M.getAssistant, { projectId: project.id, assistantId: sales.id })).toEqual(sales);
    const err = await rejection(send(M.getAssistant, { projectId: other.id, assistantId: sales.id }));
    expect(err.code).toBe('ASSISTANT_NOT_FOUND');
    expect((await send(M.listAssistants, { projectId: other.id })).data).toHaveLength(1);
  });
});

describe('identity service: keys', () => {
  it('returns a private key once and stores only its hash; keeps and lists a publishable key whole', async () => {
    const project = await newProject();
    const pk = await publishableKey(project, ['https://shop.example.com']);
    identity.clock.advance(1);
    const sk = await privateKey(project);
    expect(pk.key).toMatch(/^pk_[0-9A-Za-z]{43}$/);
    expect(sk.key).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    expect(pk).toMatchObject({ type: 'publishable', assistantId: project.defaultAssistantId, hint: pk.key.slice(-4) });
    expect(sk).toMatchObject({ type: 'private', assistantId: null, allowedOrigins: [], revokedAt: null });

    const raw = await identity.infra.documents.collection<{ _id: string; hash: string }>('keys').find({});
    expect(raw.map((d) => d.hash).sort()).toEqual([sha256(pk.key), sha256(sk.key)].sort());
    const atRest = JSON.stringify(raw);
    expect(atRest).not.toContain(sk.key);
    expect(atRest).not.toContain(sk.key.slice(3));
    expect(atRest).toContain(pk.key);

    const listed = (await send(M.listKeys, { projectId: project.id })).data;
    expect(listed.map((k) => k.id)).toEqual([pk.id, sk.id]);
    const fields = ['allowedOrigins', 'assistantId', 'createdAt', 'hint', 'id', 'name', 'projectId', 'revokedAt', 'type'];
    expect(Object.keys(listed[0]!).sort()).toEqual([...fields, 'key'].sort());
    expect(listed[0]!.key).toBe(pk.key);
    expect(Object.keys(listed[1]!).sort()).toEqual(fields.sort());
    expect(JSON.stringify(listed)).not.toContain(sk.key.slice(3));
  });

  it('wants a publishable key to name one of its project’s assistants', async () => {
    const project = await newProject();
    const other = await newProject('Other');
    const err = await rejection(
      send(M.createKey, {
        projectId: project.id,
        body: { type: 'publishable', name: 'w', assistantId: other.defaultAssistantId!, allowedOrigins: [] },
      }),
    );
    expect(err.code).toBe('ASSISTANT_NOT_FOUND');
  });

  it('revokes idempotently, and only within the key’s project', async () => {
    const project = await newProject();
    const other = await newProject('Other');
    const sk = await privateKey(project);
    const notHere = await rejection(send(M.revokeKey, { projectId: other.id, keyId: sk.id }));
    expect(notHere.code).toBe('KEY_NOT_FOUND');
    identity.clock.advance(1_000);
    const revoked = await send(M.revokeKey, { projectId: project.id, keyId: sk.id });
    expect(revoked.revokedAt).toBe('2026-01-01T00:00:01.000Z');
    identity.clock.advance(1_000);
    expect(await send(M.revokeKey, { projectId: project.id, keyId: sk.id })).toEqual(revoked);
    expect((await send(M.listKeys, { projectId: project.id })).data[0]!.revokedAt).toBe(revoked.revokedAt);
    expect((await send(M.listKeys, { projectId: other.id })).data).toEqual([]);
  });

  it('resolves a key to its project, checking type, liveness and origin', async () => {
    const project = await newProject();
    const pk = await publishableKey(project, ['https://shop.example.com']);
    const sk = await privateKey(project);

    expect(await send(M.resolveKey, { key: sk.key, origin: null, type: 'private' })).toEqual({
      projectId: project.id,
      keyId: sk.id,
      type: 'private',
      assistantId: null,
    });
    expect(await send(M.resolveKey, { key: pk.key, origin: 'https://shop.example.com', type: 'publishable' })).toEqual({
      projectId: project.id,
      keyId: pk.id,
      type: 'publishable',
      assistantId: project.defaultAssistantId,
    });
    // No Origin header: a server-to-server call, not a browser.
    expect((await send(M.resolveKey, { key: pk.key, origin: null, type: 'publishable' })).keyId).toBe(pk.id);

    const wrongType = await rejection(send(M.resolveKey, { key: pk.key, origin: null, type: 'private' }));
    expect(wrongType.code).toBe('FORBIDDEN');
    expect(wrongType.message).toContain('private key');
    const wrongType2 = await rejection(send(M.resolveKey, { key: sk.key, origin: null, type: 'publishable' }));
    expect(wrongType2.code).toBe('FORBIDDEN');
    expect(wrongType2.message).toContain('publishable key');

    const elsewhere = await rejection(send(M.resolveKey, { key: pk.key, origin: 'https://evil.example.com', type: 'publishable' }));
    expect(elsewhere.code).toBe('FORBIDDEN');

    const unknown = `sk_${'A'.repeat(43)}`;
    for (const key of [unknown, 'sk_short', 'nonsense', '']) {
      expect((await rejection(send(M.resolveKey, { key, origin: null, type: 'private' }))).code).toBe('UNAUTHORIZED');
    }
    await send(M.revokeKey, { projectId: project.id, keyId: sk.id });
    expect((await rejection(send(M.resolveKey, { key: sk.key, origin: null, type: 'private' }))).code).toBe('UNAUTHORIZED');
  });

  it('lets any origin through an unrestricted or * key', async () => {
    const project = await newProject();
    for (const allowed of [[], ['*'], ['https://a.test', '*']]) {
      const pk = await publishableKey(project, allowed);
      const info = await send(M.resolveKey, { key: pk.key, origin: 'https://anywhere.test', type: 'publishable' });
      expect(info.keyId).toBe(pk.id);
    }
  });

  it('checks origins for CORS preflight', async () => {
    const project = await newProject();
    const shop = await publishableKey(project, ['https://shop.example.com']);
    const blog = await publishableKey(project, ['https://*.blog.test']);
    await privateKey(project);
    const allowed = async (origin: string, apiKey: string | null = null) => (await send(M.checkOrigin, { origin, apiKey })).allowed;

    expect(await allowed('https://shop.example.com')).toBe(true);
    expect(await allowed('https://news.blog.test')).toBe(true);
    expect(await allowed('https://evil.example.com')).toBe(false);
    expect(await allowed('https://shop.example.com', shop.key)).toBe(true);
    expect(await allowed('https://news.blog.test', shop.key)).toBe(false);
    // An unknown key falls back to the question for any key.
    expect(await allowed('https://news.blog.test', `pk_${'B'.repeat(43)}`)).toBe(true);

    await send(M.revokeKey, { projectId: project.id, keyId: blog.id });
    expect(await allowed('https://news.blog.test')).toBe(false);

    const open = await publishableKey(project, []);
    expect(await allowed('https://evil.example.com')).toBe(true);
    await send(M.revokeKey, { projectId: project.id, keyId: open.id });
    expect(await allowed('https://evil.example.com')).toBe(false);
  });
});

describe('identity service: visitors and sessions', () => {
  it('creates a visitor on first init and finds it after, with a fresh session each time', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const first = await initVisitor(pk.key, 'device-1', null);
    expect(first.created).toBe(true);
    expect(first.visitor).toEqual({
      object: 'visitor',
      id: first.visitor.id,
      type: 'anonymous',
      externalId: null,
      name: null,
      avatarUrl: null,
    });
    expect(first.sessionToken).toMatch(/^st_[0-9A-Za-z]{43}$/);
    const second = await initVisitor(pk.key, 'device-1', null);
    expect(second.created).toBe(false);
    expect(second.visitor).toEqual(first.visitor);
    expect(second.sessionToken).not.toBe(first.sessionToken);

    for (const token of [first.sessionToken, second.sessionToken]) {
      expect(await send(M.resolveSession, { token, origin: null })).toEqual({
        projectId: project.id,
        visitorId: first.visitor.id,
        keyId: pk.id,
        assistantId: project.defaultAssistantId,
      });
    }
    expect(await send(M.getVisitor, { projectId: project.id, visitorId: first.visitor.id })).toEqual(first.visitor);
    // The session is kept under the token's hash.
    expect(await identity.infra.kv.get(`identity:session:${sha256(first.sessionToken)}`)).not.toBeNull();
  });

  it('creates a device’s visitor once under concurrent first visits', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const results = await Promise.all(Array.from({ length: 8 }, () => initVisitor(pk.key, 'racer', null)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.visitor.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.sessionToken)).size).toBe(8);
  });

  it('keeps projects apart', async () => {
    const a = await newProject('A');
    const b = await newProject('B');
    const va = await initVisitor((await publishableKey(a)).key, 'same-device', null);
    const vb = await initVisitor((await publishableKey(b)).key, 'same-device', null);
    expect(vb.created).toBe(true);
    expect(vb.visitor.id).not.toBe(va.visitor.id);
    expect((await send(M.resolveSession, { token: vb.sessionToken, origin: null })).projectId).toBe(b.id);
    const err = await rejection(send(M.getVisitor, { projectId: b.id, visitorId: va.visitor.id }));
    expect(err.code).toBe('NOT_FOUND');
  });

  it('needs a live publishable key from an allowed origin to init', async () => {
    const project = await newProject();
    const pk = await publishableKey(project, ['https://shop.example.com']);
    const sk = await privateKey(project);
    const init = (apiKey: string, origin: string | null) => initVisitor(apiKey, 'd', origin);

    expect((await init(pk.key, 'https://shop.example.com')).created).toBe(true);
    expect((await rejection(init(pk.key, 'https://evil.example.com'))).code).toBe('FORBIDDEN');
    expect((await rejection(init(sk.key, null))).code).toBe('FORBIDDEN');
    expect((await rejection(init('pk_nope', null))).code).toBe('UNAUTHORIZED');
    await send(M.revokeKey, { projectId: project.id, keyId: pk.id });
    expect((await rejection(init(pk.key, 'https://shop.example.com'))).code).toBe('UNAUTHORIZED');
  });

  it('expires a session after the idle TTL, each use extending it', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const { sessionToken: token } = await initVisitor(pk.key, 'd', null);
    const resolve = () => send(M.resolveSession, { token, origin: null });

    identity.clock.advance((IDLE_TTL_SECONDS - 1) * 1000);
    await resolve();
    identity.clock.advance((IDLE_TTL_SECONDS - 1) * 1000);
    await resolve(); // alive well past one TTL since init, because it was used
    identity.clock.advance(IDLE_TTL_SECONDS * 1000);
    expect((await rejection(resolve())).code).toBe('UNAUTHORIZED');

    const { sessionToken: idle } = await initVisitor(pk.key, 'd', null);
    identity.clock.advance(IDLE_TTL_SECONDS * 1000);
    expect((await rejection(send(M.resolveSession, { token: idle, origin: null }))).code).toBe('UNAUTHORIZED');
  });

  it('writes a busy session back only once a tenth of its idle TTL has passed', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const { sessionToken: token } = await initVisitor(pk.key, 'd', null);
    const resolve = () => send(M.resolveSession, { token, origin: null });
    const sessionWrites = vi.spyOn(identity.infra.kv, 'set');

    for (let i = 0; i < 5; i++) {
      identity.clock.advance(1_000);
      await resolve();
    }
    expect(sessionWrites).not.toHaveBeenCalled();
    identity.clock.advance(IDLE_TTL_SECONDS * 100); // now past a tenth of the TTL since init
    await resolve();
    expect(sessionWrites).toHaveBeenCalledTimes(1);
    // Lapses a full TTL after that extension.
    identity.clock.advance(IDLE_TTL_SECONDS * 1000 - 1);
    await resolve();
    identity.clock.advance(IDLE_TTL_SECONDS * 1000);
    expect((await rejection(resolve())).code).toBe('UNAUTHORIZED');
  });

  it("tells how long a session has left without extending it (a live stream's expiry)", async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const { sessionToken: token } = await initVisitor(pk.key, 'd', null);
    const expiry = () => send(M.sessionExpiry, { token });

    identity.clock.advance(IDLE_TTL_SECONDS * 500);
    expect(await expiry()).toEqual({ expiresInMs: IDLE_TTL_SECONDS * 500 });
    identity.clock.advance(IDLE_TTL_SECONDS * 400);
    expect(await expiry()).toEqual({ expiresInMs: IDLE_TTL_SECONDS * 100 }); // asking did not extend it
    await send(M.resolveSession, { token, origin: null }); // a use does
    expect(await expiry()).toEqual({ expiresInMs: IDLE_TTL_SECONDS * 1000 });
    identity.clock.advance(IDLE_TTL_SECONDS * 1000);
    expect((await rejection(expiry())).code).toBe('UNAUTHORIZED');

    const { sessionToken: revoked } = await initVisitor(pk.key, 'other', null);
    await send(M.revokeKey, { projectId: project.id, keyId: pk.id });
    expect((await rejection(send(M.sessionExpiry, { token: revoked }))).code).toBe('UNAUTHORIZED');
    expect((await rejection(send(M.sessionExpiry, { token: 'garbage' }))).code).toBe('UNAUTHORIZED');
  });

  it('rejects unknown and malformed session tokens', async () => {
    for (const token of [`st_${'C'.repeat(43)}`, 'st_x', 'garbage', '']) {
      expect((await rejection(send(M.resolveSession, { token, origin: null }))).code).toBe('UNAUTHORIZED');
    }
  });

  it('stops every session of a key the moment it is revoked', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const kept = await publishableKey(project);
    const sessions = await Promise.all(['d1', 'd2'].map((saVid) => initVisitor(pk.key, saVid, null)));
    const other = await initVisitor(kept.key, 'd1', null);
    await send(M.revokeKey, { projectId: project.id, keyId: pk.id });
    for (const { sessionToken } of sessions) {
      const err = await rejection(send(M.resolveSession, { token: sessionToken, origin: null }));
      expect(err.code).toBe('UNAUTHORIZED');
    }
    expect((await send(M.resolveSession, { token: other.sessionToken, origin: null })).keyId).toBe(kept.id);
  });

  it('refuses a session used from an origin its key does not allow', async () => {
    const project = await newProject();
    const pk = await publishableKey(project, ['https://shop.example.com']);
    const { sessionToken: token } = await initVisitor(pk.key, 'd', 'https://shop.example.com');
    expect((await send(M.resolveSession, { token, origin: 'https://shop.example.com' })).keyId).toBe(pk.id);
    expect((await send(M.resolveSession, { token, origin: null })).keyId).toBe(pk.id);
    const err = await rejection(send(M.resolveSession, { token, origin: 'https://evil.example.com' }));
    expect(err.code).toBe('FORBIDDEN');
    // A refused origin does not end the session for the allowed one.
    expect((await send(M.resolveSession, { token, origin: 'https://shop.example.com' })).keyId).toBe(pk.id);
  });
});

describe('identity service: identified visitors are apart from devices', () => {
  const token = (secret: string, claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(identity.clock.now().getTime() / 1000) + 600)
      .sign(new TextEncoder().encode(secret));
  const initWithToken = async (apiKey: string, saVid: string, userToken: string) => {
    const key = await send(M.resolveKey, { key: apiKey, origin: null, type: 'publishable' });
    return send(M.initVisitor, { key: { ...key, type: 'publishable' }, saVid, userToken });
  };

  it("a device whose id is a customer's appUserId gets its own anonymous visitor", async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const customer = await send(M.upsertCustomer, { projectId: project.id, appUserId: 'user-42', body: { name: 'Ann' } });
    const device = await initVisitor(pk.key, 'user-42', null);
    expect(device.visitor).toMatchObject({ type: 'anonymous', externalId: null, name: null });
    expect(device.visitor.id).not.toBe(customer.id);
    expect(await send(M.getCustomer, { projectId: project.id, appUserId: 'user-42' })).toMatchObject({ id: customer.id, name: 'Ann' });
  });

  it('an anonymous device is never taken for a customer of the same id', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const device = await initVisitor(pk.key, 'user-9', null);
    expect((await rejection(send(M.getCustomer, { projectId: project.id, appUserId: 'user-9' }))).code).toBe('NOT_FOUND');
    const customer = await send(M.upsertCustomer, { projectId: project.id, appUserId: 'user-9', body: {} });
    expect(customer.id).not.toBe(device.visitor.id);
    expect((await initVisitor(pk.key, 'user-9', null)).visitor).toMatchObject({ id: device.visitor.id, type: 'anonymous' });
  });

  it('concurrent first inits with tokens for one user make one identified visitor, updated from the token', async () => {
    const project = await newProject();
    const pk = await publishableKey(project);
    const { secret } = await send(M.rotateIdentitySecret, { projectId: project.id });
    const userToken = await token(secret, { sub: 'user-5', name: 'Eve', avatarUrl: 'https://example.com/eve.png' });
    const results = await Promise.all(['a', 'b', 'c'].map((saVid) => initWithToken(pk.key, saVid, userToken)));
    expect(new Set(results.map((r) => r.visitor.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.visitor).toMatchObject({
      type: 'identified',
      externalId: 'user-5',
      name: 'Eve',
      avatarUrl: 'https://example.com/eve.png',
    });
    const renamed = await initWithToken(pk.key, 'a', await token(secret, { sub: 'user-5', name: 'Eve B' }));
    expect(renamed.visitor).toMatchObject({ id: results[0]!.visitor.id, name: 'Eve B', avatarUrl: 'https://example.com/eve.png' });
    expect((await send(M.getCustomer, { projectId: project.id, appUserId: 'user-5' })).name).toBe('Eve B');
  });

  it('bounds the merged attributes of a customer', async () => {
    const project = await newProject();
    const fifty = (prefix: string) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${prefix}${i}`, 'v']));
    await send(M.upsertCustomer, { projectId: project.id, appUserId: 'u', body: { attributes: fifty('a') } });
    await send(M.upsertCustomer, { projectId: project.id, appUserId: 'u', body: { attributes: fifty('b') } });
    // Replacing existing keys stays within the bound.
    await send(M.upsertCustomer, { projectId: project.id, appUserId: 'u', body: { attributes: fifty('a') } });
    const err = await rejection(send(M.upsertCustomer, { projectId: project.id, appUserId: 'u', body: { attributes: { c: 'v' } } }));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toMatchObject({ field: 'attributes' });
    expect(Object.keys((await send(M.getCustomer, { projectId: project.id, appUserId: 'u' })).attributes)).toHaveLength(100);
  });
});

describe('identity service: agents', () => {
  /** What the conversation service is asked to release, answered as it would when nothing is held. */
  const releases = () => {
    const send = identity.infra.services.send.bind(identity.infra.services);
    const asked: unknown[] = [];
    vi.spyOn(identity.infra.services, 'send').mockImplementation(((message: ServiceMessage, request: unknown) => {
      if (message !== ConversationMessages.releaseHeld) return send(message as never, request as never);
      asked.push(request);
      return Promise.resolve({ released: [] });
    }) as never);
    return asked;
  };

  it('revokes an agent: its token stops, every gateway is told, and what it held is released (again on a repeat)', async () => {
    const project = await newProject();
    const ada = await send(M.createAgent, { projectId: project.id, body: { name: 'Ada' } });
    const announced: unknown[] = [];
    await identity.infra.pubsub.subscribe(IDENTITY_CHANGES_CHANNEL, (change) => announced.push(change));
    const asked = releases();

    const revoked = await send(M.revokeAgent, { projectId: project.id, agentId: ada.id });
    expect(revoked.revokedAt).not.toBeNull();
    expect((await rejection(send(M.resolveAgent, { token: ada.token }))).code).toBe('UNAUTHORIZED');
    expect(announced).toEqual([{ kind: 'agent-revoked', projectId: project.id, agentId: ada.id }]);
    expect(asked).toEqual([{ projectId: project.id, humanAgentId: ada.id }]);

    expect(await send(M.revokeAgent, { projectId: project.id, agentId: ada.id })).toEqual(revoked);
    expect(asked).toHaveLength(2);
    expect((await rejection(send(M.revokeAgent, { projectId: project.id, agentId: randomUUID() }))).code).toBe('NOT_FOUND');
  });
});
