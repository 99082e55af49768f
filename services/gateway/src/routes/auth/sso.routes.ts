import { randomBytes } from 'node:crypto';
import { AccountMessages, AppError } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type SsoAttempt, SsoClient } from '../../auth/sso-client';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import { signIn } from './auth.routes';

const ATTEMPT_COOKIE = 'palaver_sso';
/** Time to sign in at the provider. */
const ATTEMPT_TTL_SECONDS = 600;

const cookieValue = (request: FastifyRequest, name: string): string | null => {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || null;
  }
  return null;
};

const origin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/**
 * "Sign in with SSO": `GET /auth/v1/sso/start` redirects to the provider; its answer comes back to
 * `GET /auth/v1/sso/callback`, which signs in the user with that verified email (created when new)
 * and goes to the dashboard. The attempt (state, nonce, PKCE verifier) waits in the KV store under
 * a random id held in a short-lived httpOnly cookie, so it is bound to the browser that started.
 */
export const ssoRoutes = (routes: Routes, { services, kv, config }: GatewayDeps): void => {
  const enabled = Boolean(config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET);
  const client = enabled
    ? new SsoClient({ issuer: config.OIDC_ISSUER!, clientId: config.OIDC_CLIENT_ID!, clientSecret: config.OIDC_CLIENT_SECRET! })
    : null;
  const sso = routes.scope({ auth: 'none', tag: 'auth' });
  const configured = (): SsoClient => {
    if (!client) throw new AppError('NOT_FOUND', 'single sign-on is not configured');
    return client;
  };

  sso.get(
    '/auth/v1/sso',
    {
      summary: 'Whether single sign-on is configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)',
      responses: ok('SSO', z.object({ enabled: z.boolean() })),
    },
    async () => ({ enabled }),
  );

  sso.get(
    '/auth/v1/sso/start',
    {
      summary: "Redirect to the identity provider's sign-in (404 when SSO is not configured)",
      responses: { 302: { description: 'To the provider' } },
    },
    async ({ request, reply }) => {
      const { url, attempt } = await configured().start(`${origin(request)}/auth/v1/sso/callback`);
      const id = randomBytes(24).toString('base64url');
      await kv.set(`gateway:sso:${id}`, JSON.stringify(attempt), ATTEMPT_TTL_SECONDS);
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${ATTEMPT_COOKIE}=${id}; Path=/auth/v1/sso; HttpOnly; SameSite=Lax; Max-Age=${ATTEMPT_TTL_SECONDS}${secure}`,
      );
      return reply.redirect(url, 302);
    },
  );

  sso.get(
    '/auth/v1/sso/callback',
    {
      summary: "The provider's answer: signs in by verified email and redirects to the dashboard",
      responses: { 302: { description: 'To the dashboard, signed in' } },
    },
    async ({ request, reply }) => {
      const provider = configured();
      const id = cookieValue(request, ATTEMPT_COOKIE);
      const raw = id ? await kv.get(`gateway:sso:${id}`) : null;
      if (!id || raw === null)
        throw new AppError('UNAUTHORIZED', 'this sign-in has expired or was started in another browser: start again');
      await kv.del(`gateway:sso:${id}`);
      const attempt = JSON.parse(raw) as SsoAttempt;
      const callback = new URL(request.url, attempt.redirectUri);
      const identity = await provider.finish(callback, attempt);
      const { session } = await services.send(AccountMessages.ssoLogin, identity);
      reply.header('set-cookie', `${ATTEMPT_COOKIE}=; Path=/auth/v1/sso; HttpOnly; SameSite=Lax; Max-Age=0`);
      signIn(request, reply, session);
      return reply.redirect('/dashboard/', 302);
    },
  );
};
