import {
  AcceptInviteBody,
  AccountMessages,
  ApiTokenRecord,
  CreateApiTokenBody,
  CreatedApiToken,
  LoginBody,
  Me,
  UserRecord,
  type UserSession,
} from '@palaver/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertNotCrossSite } from '../../auth/same-origin';
import { clearSessionCookie, SESSION_COOKIE, sessionCookieOf, setSessionCookie } from '../../auth/session-cookie';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { created, dataList, noContent, ok } from '../../openapi/responses';

const SignedIn = z.object({ user: UserRecord });

export const signIn = (request: FastifyRequest, reply: FastifyReply, session: UserSession): void =>
  setSessionCookie(request, reply, session.token, session.idleSeconds);

/** A same-site sign-in: the credentials checked by `authenticate`, the session cookie set, the user answered. */
const signInWith = async (
  request: FastifyRequest,
  reply: FastifyReply,
  authenticate: () => Promise<{ user: UserRecord; session: UserSession }>,
): Promise<{ user: UserRecord }> => {
  assertNotCrossSite(request);
  const { user, session } = await authenticate();
  signIn(request, reply, session);
  return { user };
};

/** Sign-in, sign-out, the signed-in person, invitations and personal API tokens (`/auth/v1`). */
export const authRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const open = routes.scope({ auth: 'none', tag: 'auth' });
  const person = routes.scope({ auth: 'user', tag: 'auth' });

  open.post(
    '/auth/v1/login',
    {
      summary: `Sign in with email and password: sets the ${SESSION_COOKIE} cookie (429 after 5 failures in 15 minutes for the account or the address)`,
      body: LoginBody,
      responses: ok('Signed in', SignedIn),
    },
    async ({ body, request, reply }) =>
      signInWith(request, reply, () => services.send(AccountMessages.login, { ...body, address: request.ip })),
  );

  open.post(
    '/auth/v1/accept-invite',
    {
      summary: "Set an invited user's password with the invitation's one-time token, and sign in",
      body: AcceptInviteBody,
      responses: ok('Signed in', SignedIn),
    },
    async ({ body, request, reply }) => signInWith(request, reply, () => services.send(AccountMessages.acceptInvite, body)),
  );

  open.post(
    '/auth/v1/logout',
    {
      summary: 'End the session of the cookie and clear it (204, also when not signed in)',
      responses: noContent('Signed out'),
    },
    async ({ request, reply }) => {
      assertNotCrossSite(request);
      const token = sessionCookieOf(request);
      if (token !== null) await services.send(AccountMessages.logout, { token });
      clearSessionCookie(request, reply);
    },
  );

  person.get(
    '/auth/v1/me',
    {
      summary: 'The signed-in person and their roles',
      responses: ok('Me', Me),
    },
    async ({ principal }) => principal.me,
  );

  person.post(
    '/auth/v1/tokens',
    {
      summary: "Create a personal API token (`pat_…`, shown once) acting with the caller's roles",
      body: CreateApiTokenBody,
      responses: created('Token', CreatedApiToken),
    },
    async ({ principal, body }) => services.send(AccountMessages.createApiToken, { userId: principal.me.id, body }),
  );

  person.get(
    '/auth/v1/tokens',
    {
      summary: "The caller's personal API tokens, without secrets",
      responses: ok('Tokens', dataList(ApiTokenRecord)),
    },
    async ({ principal }) => services.send(AccountMessages.listApiTokens, { userId: principal.me.id }),
  );

  person.delete(
    '/auth/v1/tokens/:tokenId',
    {
      summary: "Revoke one of the caller's personal API tokens",
      responses: ok('The revoked token', ApiTokenRecord),
    },
    async ({ principal, params }) => services.send(AccountMessages.revokeApiToken, { userId: principal.me.id, tokenId: params.tokenId }),
  );
};
