import { AccountMessages as A, IdentityMessages as M, type RequestOf, type ServiceMessage } from '@palaver/contracts';
import { rejection, useServiceUnderTest } from '@palaver/platform/testing';
import { describe, expect, it } from 'vitest';
import { startIdentityService } from './index';

const INVITATION_TTL_SECONDS = 3600;
const identity = useServiceUnderTest(startIdentityService, { INVITATION_TTL_SECONDS });

const send = <Msg extends ServiceMessage>(message: Msg, request: RequestOf<Msg>) => identity.infra.services.send(message, request);
const PASSWORD = 'violet-kettle-92-harbour';
const owner = { type: 'user', id: '00000000-0000-4000-8000-000000000001', email: 'o@example.com' } as const;

describe('identity: users and invitations', () => {
  it('creates a user with a password, never answering it, and refuses a duplicate email', async () => {
    const user = await send(A.createUser, { body: { email: 'Ada@Example.com', name: 'Ada', password: PASSWORD } });
    expect(user).toMatchObject({ email: 'ada@example.com', status: 'active', invitation: null });
    expect(JSON.stringify(user)).not.toMatch(/argon2|violet/);
    expect((await rejection(send(A.createUser, { body: { email: 'ada@example.com', name: 'A2' } }))).code).toBe('CONFLICT');
    expect((await rejection(send(A.createUser, { body: { email: 'b@example.com', name: 'B', password: 'password1234' } }))).code).toBe(
      'VALIDATION_ERROR',
    );
  });

  it('invites a user once: the link sets the password and signs in, then is spent; an expired one is refused', async () => {
    const invited = await send(A.createUser, { body: { email: 'bo@example.com', name: 'Bo' } });
    expect(invited.status).toBe('invited');
    const token = invited.invitation!.token;
    expect(invited.invitation!.url).toBe(`/dashboard/accept-invite?token=${token}`);
    // A refused password leaves the link valid.
    expect((await rejection(send(A.acceptInvite, { token, password: 'qwerty123456' }))).code).toBe('VALIDATION_ERROR');
    const accepted = await send(A.acceptInvite, { token, password: PASSWORD });
    expect(accepted.user.status).toBe('active');
    expect((await send(A.resolveUserSession, { token: accepted.session.token })).me.email).toBe('bo@example.com');
    expect((await rejection(send(A.acceptInvite, { token, password: PASSWORD }))).code).toBe('UNAUTHORIZED');

    const late = await send(A.createUser, { body: { email: 'cy@example.com', name: 'Cy' } });
    identity.clock.advance(INVITATION_TTL_SECONDS * 1000);
    expect((await rejection(send(A.acceptInvite, { token: late.invitation!.token, password: PASSWORD }))).code).toBe('UNAUTHORIZED');
  });
});

describe('identity: sign-in', () => {
  it('answers a wrong password and an unknown email alike, and throttles after five failures', async () => {
    await send(A.createUser, { body: { email: 'ada@example.com', name: 'Ada', password: PASSWORD } });
    const unknown = await rejection(send(A.login, { email: 'nobody@example.com', password: PASSWORD, address: '10.0.0.9' }));
    const wrong = await rejection(send(A.login, { email: 'ada@example.com', password: 'not-the-password', address: '10.0.0.1' }));
    expect([unknown.code, unknown.message]).toEqual([wrong.code, wrong.message]);
    for (let i = 0; i < 4; i++) {
      await rejection(send(A.login, { email: 'ada@example.com', password: 'not-the-password', address: `10.0.1.${i}` }));
    }
    // Five failures for the account: even the right password is refused now, from any address.
    const throttled = await rejection(send(A.login, { email: 'ada@example.com', password: PASSWORD, address: '10.0.2.1' }));
    expect(throttled.code).toBe('RATE_LIMIT_EXCEEDED');
    expect((throttled.details as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
  });

  it('signs in, resolves the session with the roles, and ends it at logout', async () => {
    const user = await send(A.createUser, { body: { email: 'ada@example.com', name: 'Ada', password: PASSWORD } });
    const project = await send(M.createProject, { name: 'Shop' });
    await send(A.putMember, { projectId: project.id, userId: user.id, body: { role: 'agent' } });
    const { session } = await send(A.login, { email: 'ADA@example.com', password: PASSWORD, address: '10.0.0.1' });
    const { me } = await send(A.resolveUserSession, { token: session.token });
    expect(me).toEqual({
      id: user.id,
      email: 'ada@example.com',
      name: 'Ada',
      image: null,
      memberships: [{ projectId: project.id, role: 'agent' }],
    });
    await send(A.logout, { token: session.token });
    expect((await rejection(send(A.resolveUserSession, { token: session.token }))).code).toBe('UNAUTHORIZED');
  });
});

describe('identity: members, API tokens and the audit log', () => {
  it('keeps an owner, lists members, resolves API tokens with the user rights, and audits each change', async () => {
    const ada = await send(A.createUser, { body: { email: 'ada@example.com', name: 'Ada', password: PASSWORD } });
    const project = await send(M.createProject, { name: 'Shop', actor: { type: 'user', id: ada.id, email: ada.email } });
    // The creator became owner; the last owner cannot leave.
    expect((await send(A.listMembers, { projectId: project.id })).data.map((m) => [m.user.email, m.role])).toEqual([
      ['ada@example.com', 'owner'],
    ]);
    expect((await rejection(send(A.putMember, { projectId: project.id, userId: ada.id, body: { role: 'admin' } }))).code).toBe('CONFLICT');
    expect((await rejection(send(A.removeMember, { projectId: project.id, userId: ada.id }))).code).toBe('CONFLICT');

    const pat = await send(A.createApiToken, { userId: ada.id, body: { name: 'ci' } });
    expect(pat.token).toMatch(/^pat_/);
    expect((await send(A.resolveApiToken, { token: pat.token })).me.memberships).toEqual([{ projectId: project.id, role: 'owner' }]);
    await send(A.revokeApiToken, { userId: ada.id, tokenId: pat.id });
    expect((await rejection(send(A.resolveApiToken, { token: pat.token }))).code).toBe('UNAUTHORIZED');

    const key = await send(M.createKey, { actor: owner, projectId: project.id, body: { type: 'private', name: 'server' } });
    await send(M.revokeKey, { actor: owner, projectId: project.id, keyId: key.id });
    const page = await send(A.listAudit, { projectId: project.id, query: { limit: 2 } });
    expect(page.data.map((e) => e.action)).toEqual(['key.revoked', 'key.created']);
    expect(page.data[0]).toMatchObject({ actor: owner, target: { type: 'key', id: key.id } });
    expect(JSON.stringify(page)).not.toContain(key.key);
    const rest = await send(A.listAudit, { projectId: project.id, query: { limit: 50, cursor: page.nextCursor! } });
    expect(rest.data.map((e) => e.action)).toEqual(['member.added', 'project.created']);
    expect(rest.nextCursor).toBeNull();
    const byActor = await send(A.listAudit, { projectId: project.id, query: { limit: 50, actor: ada.id, action: 'member' } });
    expect(byActor.data.map((e) => e.action)).toEqual(['member.added']);
  });
});
