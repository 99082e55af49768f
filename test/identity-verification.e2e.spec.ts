import { randomUUID } from 'node:crypto';
import { ManualClock } from '@palaver/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, startE2eApp, useE2eApp } from './support/e2e-app';
import { RecordingChatModel } from './support/recording-chat-model';
import { epochSeconds, signUserToken } from './support/user-token';

type Keys = Awaited<ReturnType<E2eApp['admin']['createProject']>>;

const init = (e2e: E2eApp, body: Record<string, unknown>) => http(`${e2e.url}/v2/identity/init`, { body });
const rotate = async (e2e: E2eApp, projectId: string): Promise<string> => {
  const result = await http(`${e2e.url}/admin/v1/projects/${projectId}/identity-secret`, { method: 'POST', token: e2e.app.adminToken });
  expect(result.status).toBe(201);
  return result.body.secret;
};

describe('identity verification: a device id never reaches an identified customer', () => {
  let e2e: E2eApp;
  let keys: Keys;
  const surfaceB = (path: string, body?: unknown) => http(`${e2e.url}/api${path}`, { body, headers: { 'x-service-key': keys.privateKey } });
  const say = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] }, streaming: false });

  beforeAll(async () => {
    e2e = await startE2eApp({}, { chatModel: new RecordingChatModel() });
    keys = await e2e.admin.createProject();
  });
  afterAll(() => e2e.stop());

  it("init with a customer's appUserId as saVid gets an anonymous visitor with none of her chats", async () => {
    expect((await surfaceB('/customers/user-42', { name: 'Ann' })).status).toBe(200);
    const chatId = randomUUID();
    expect((await surfaceB(`/customers/user-42/chats/${chatId}/chat`, say('Where is my parcel?'))).status).toBe(200);

    const attack = await init(e2e, { apiKey: keys.publishableKey, saVid: 'user-42' });
    expect(attack.status).toBe(201);
    expect(attack.body.visitor).toMatchObject({ type: 'anonymous', externalId: null, name: null });
    const me = await http(`${e2e.url}/v2/identity/me`, { token: attack.body.sessionToken });
    expect(me.body).toMatchObject({ type: 'anonymous', externalId: null, name: null });
    const chats = await http(`${e2e.url}/v2/conversations`, { token: attack.body.sessionToken });
    expect(chats.status).toBe(200);
    expect(chats.body.data).toEqual([]);
    expect((await http(`${e2e.url}/v2/conversations/${chatId}`, { token: attack.body.sessionToken })).status).toBe(403);

    // The anonymous device and the customer stay two people on surface B too.
    const customer = (await surfaceB(`/customers/user-42/chats/${chatId}`)).body;
    expect(customer.customerId).not.toBe(attack.body.visitor.id);
    expect((await surfaceB('/customers/user-42/chats')).body.data).toHaveLength(1);
  });

  it("a valid user token reaches surface B's customer and her chats, on any device", async () => {
    await surfaceB('/customers/user-7', { name: 'Bea' });
    const chatId = randomUUID();
    await surfaceB(`/customers/user-7/chats/${chatId}/chat`, say('Hello'));
    const customerId = (await surfaceB(`/customers/user-7/chats/${chatId}`)).body.customerId;
    const secret = await rotate(e2e, keys.project.id);

    const userToken = signUserToken({ sub: 'user-7', name: 'Bea Smith', iat: epochSeconds(), exp: epochSeconds(3600) }, secret);
    const first = await init(e2e, { apiKey: keys.publishableKey, saVid: 'laptop', userToken });
    expect(first.status).toBe(200);
    expect(first.body.visitor).toEqual({
      object: 'visitor',
      id: customerId,
      type: 'identified',
      externalId: 'user-7',
      name: 'Bea Smith',
      avatarUrl: null,
    });
    const me = await http(`${e2e.url}/v2/identity/me`, { token: first.body.sessionToken });
    expect(me.body).toMatchObject({ type: 'identified', externalId: 'user-7', name: 'Bea Smith' });
    const list = await http(`${e2e.url}/v2/conversations`, { token: first.body.sessionToken });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([chatId]);

    // Another device, the same person; the device's own anonymous visitor stays apart.
    const phone = await init(e2e, { apiKey: keys.publishableKey, saVid: 'phone', userToken });
    expect(phone.body.visitor.id).toBe(customerId);
    const anonymousPhone = await init(e2e, { apiKey: keys.publishableKey, saVid: 'phone' });
    expect(anonymousPhone.body.visitor).toMatchObject({ type: 'anonymous' });
    expect(anonymousPhone.body.visitor.id).not.toBe(customerId);

    // A token for someone surface B has not seen yet creates the customer it names.
    const newcomer = signUserToken({ sub: 'user-8', email: 'cy@example.com', exp: epochSeconds(60) }, secret);
    const created = await init(e2e, { apiKey: keys.publishableKey, saVid: 'laptop', userToken: newcomer });
    expect(created.status).toBe(201);
    expect(created.body.visitor).toMatchObject({ type: 'identified', externalId: 'user-8' });
    expect((await surfaceB('/customers/user-8', {})).body).toMatchObject({ id: created.body.visitor.id, email: 'cy@example.com' });
  });

  it('a forged, expired, unsigned, too long-lived or incomplete token is 401 INVALID_USER_TOKEN', async () => {
    const secret = await rotate(e2e, keys.project.id);
    const other = await e2e.admin.createProject();
    const otherSecret = await rotate(e2e, other.project.id);
    const claims = { sub: 'user-42', name: 'Ann', exp: epochSeconds(600) };
    const tokens = {
      'another secret': signUserToken(claims, 'idv_guessed-secret-of-the-right-length-000000'),
      "another project's secret": signUserToken(claims, otherSecret),
      expired: signUserToken({ ...claims, exp: epochSeconds(-600) }, secret),
      'alg none': signUserToken(claims, secret, 'none'),
      'exp more than 24 h ahead': signUserToken({ ...claims, exp: epochSeconds(25 * 3600) }, secret),
      'no sub': signUserToken({ name: 'Ann', exp: epochSeconds(600) }, secret),
      'no exp': signUserToken({ sub: 'user-42' }, secret),
      'sub over 100 characters': signUserToken({ ...claims, sub: 'x'.repeat(101) }, secret),
      'not a JWT': 'not-a-jwt',
    };
    for (const [what, userToken] of Object.entries(tokens)) {
      const result = await init(e2e, { apiKey: keys.publishableKey, saVid: 'device-1', userToken });
      expect(result.status, what).toBe(401);
      expect(result.body.error.code, what).toBe('INVALID_USER_TOKEN');
    }
    expect((await init(e2e, { apiKey: keys.publishableKey, saVid: 'device-1', userToken: signUserToken(claims, secret) })).status).toBe(
      200,
    );
  });

  it('a project that requires verification refuses an init without a token (USER_TOKEN_REQUIRED)', async () => {
    const strict = await e2e.admin.createProject();
    const path = `/projects/${strict.project.id}`;
    const early = await http(`${e2e.url}/admin/v1${path}`, {
      method: 'PATCH',
      body: { identityVerification: { required: true } },
      token: e2e.app.adminToken,
    });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('VALIDATION_ERROR');

    const secret = await rotate(e2e, strict.project.id);
    const patched = await e2e.admin.call('PATCH', path, { identityVerification: { required: true } });
    expect(patched.identityVerification).toEqual({ required: true, secretCreatedAt: expect.any(String) });
    // The secret is never listed.
    for (const listed of [patched, await e2e.admin.call('GET', path), ...(await e2e.admin.call('GET', '/projects')).data])
      expect(JSON.stringify(listed)).not.toContain(secret);

    const refused = await init(e2e, { apiKey: strict.publishableKey, saVid: 'device-2' });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('USER_TOKEN_REQUIRED');
    const userToken = signUserToken({ sub: 'member-1', exp: epochSeconds(600) }, secret);
    expect((await init(e2e, { apiKey: strict.publishableKey, saVid: 'device-2', userToken })).status).toBe(201);

    await e2e.admin.call('PATCH', path, { identityVerification: { required: false } });
    expect((await init(e2e, { apiKey: strict.publishableKey, saVid: 'device-2' })).status).toBe(201);
  });
});

describe('identity secret rotation (the Clock port decides)', () => {
  const clock = new ManualClock(new Date());
  const e2e = useE2eApp({}, { clock });

  it('keeps the previous secret valid for 24 hours after a rotation, and no longer', async () => {
    const keys = await e2e.admin.createProject();
    const token = (secret: string) => signUserToken({ sub: 'user-1', exp: epochSeconds(3600, clock.now().getTime()) }, secret);
    const status = async (secret: string) =>
      (await init(e2e, { apiKey: keys.publishableKey, saVid: 'device', userToken: token(secret) })).status;

    const first = await rotate(e2e, keys.project.id);
    expect(await status(first)).toBe(201);
    const rotated = await http(`${e2e.url}/admin/v1/projects/${keys.project.id}/identity-secret`, {
      method: 'POST',
      token: e2e.app.adminToken,
    });
    expect(rotated.body.previousSecretValidUntil).toBe(new Date(clock.now().getTime() + 24 * 3600_000).toISOString());
    const second: string = rotated.body.secret;
    expect(second).toMatch(/^idv_[0-9A-Za-z]{43}$/);
    expect(second).not.toBe(first);
    expect(await status(first)).toBe(200);
    expect(await status(second)).toBe(200);

    clock.advance(24 * 3600_000 - 1000);
    expect(await status(first)).toBe(200);
    clock.advance(2000);
    expect(await status(first)).toBe(401);
    expect(await status(second)).toBe(200);

    // A rotation keeps only the secret it replaces: the one before it stops at once.
    const third = await rotate(e2e, keys.project.id);
    expect(await status(second)).toBe(200);
    expect(await status(third)).toBe(200);
    expect(await status(first)).toBe(401);
  });
});
