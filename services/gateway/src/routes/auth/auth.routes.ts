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
  Uuid,
} from '@palaver/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertNotCrossSite } from '../../auth/same-origin';
import { clearSessionCookie, SESSION_COOKIE, sessionCookieOf, setSessionCookie } from '../../auth/session-cookie';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const SignedIn = z.object({ user: UserRecord });

export const signIn = (request: FastifyRequest, reply: FastifyReply, session: UserSession): void =>
  setSessionCookie(request, reply, session.token, session.idleSeconds);

/** Sign-in, sign-out, the signed-in person, invitations and personal API tokens (`/auth/v1`). */
export const authRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const open = { auth: 'none', tag: 'auth' } as const;
  const person = { auth: 'user', tag: 'auth' } as const;

  routes.add(
    {
      ...open,
      method: 'POST',
      url: '/auth/v1/login',
      summary: `Sign in with email and password: sets the ${SESSION_COOKIE} cookie (429 after 5 failures in 15 minutes for the account or the address)`,
      body: LoginBody,
      responses: { 200: { description: 'Signed in', schema: SignedIn } },
    },
    async ({ body, request, reply }) => {
      assertNotCrossSite(request);
      const { user, session } = await services.send(AccountMessages.login, { ...body, address: request.ip });
      signIn(request, reply, session);
      return { user };
    },
  );

  routes.add(
    {
      ...open,
      method: 'POST',
      url: '/auth/v1/accept-invite',
      summary: "Set an invited user's password with the invitation's one-time token, and sign in",
      body: AcceptInviteBody,
      responses: { 200: { description: 'Signed in', schema: SignedIn } },
    },
    async ({ body, request, reply }) => {
      assertNotCrossSite(request);
      const { user, session } = await services.send(AccountMessages.acceptInvite, body);
      signIn(request, reply, session);
      return { user };
    },
  );

  routes.add(
    {
      ...open,
      method: 'POST',
      url: '/auth/v1/logout',
      summary: 'End the session of the cookie and clear it (204, also when not signed in)',
      responses: { 204: { description: 'Signed out' } },
    },
    async ({ request, reply }) => {
      assertNotCrossSite(request);
      const token = sessionCookieOf(request);
      if (token !== null) await services.send(AccountMessages.logout, { token });
      clearSessionCookie(request, reply);
      return reply.status(204).send();
    },
  );

  routes.add(
    {
      ...person,
      method: 'GET',
      url: '/auth/v1/me',
      summary: 'The signed-in person and their roles',
      responses: { 200: { description: 'Me', schema: Me } },
    },
    async ({ principal }) => principal.me,
  );

  routes.add(
    {
      ...person,
      method: 'POST',
      url: '/auth/v1/tokens',
      summary: "Create a personal API token (`pat_…`, shown once) acting with the caller's roles",
      body: CreateApiTokenBody,
      responses: { 201: { description: 'Token', schema: CreatedApiToken } },
    },
    async ({ principal, body, reply }) =>
      reply.status(201).send(await services.send(AccountMessages.createApiToken, { userId: principal.me.id, body })),
  );

  routes.add(
    {
      ...person,
      method: 'GET',
      url: '/auth/v1/tokens',
      summary: "The caller's personal API tokens, without secrets",
      responses: { 200: { description: 'Tokens', schema: z.object({ data: z.array(ApiTokenRecord) }) } },
    },
    async ({ principal }) => services.send(AccountMessages.listApiTokens, { userId: principal.me.id }),
  );

  routes.add(
    {
      ...person,
      method: 'DELETE',
      url: '/auth/v1/tokens/:tokenId',
      summary: "Revoke one of the caller's personal API tokens",
      params: z.object({ tokenId: Uuid }),
      responses: { 200: { description: 'The revoked token', schema: ApiTokenRecord } },
    },
    async ({ principal, params }) => services.send(AccountMessages.revokeApiToken, { userId: principal.me.id, tokenId: params.tokenId }),
  );
};
