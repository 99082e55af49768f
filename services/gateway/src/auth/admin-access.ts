import {
  AccountMessages,
  type Actor,
  ADMIN_TOKEN_ACTOR,
  AppError,
  isProjectPermission,
  type Me,
  type Permission,
  type Role,
  roleAllows,
} from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminGuard } from './admin-token';
import { assertSameOrigin } from './same-origin';
import { sessionCookieOf, setSessionCookie } from './session-cookie';

/** Who calls the admin API: the admin token, or a person by their session cookie or personal API token. */
export type AdminPrincipal =
  | { kind: 'admin-token' }
  | { kind: 'user'; me: Me; idleSeconds: number }
  | { kind: 'api-token'; me: Me; tokenId: string };

export const actorOf = (principal: AdminPrincipal): Actor => {
  switch (principal.kind) {
    case 'admin-token':
      return ADMIN_TOKEN_ACTOR;
    case 'user':
      return { type: 'user', id: principal.me.id, email: principal.me.email };
    case 'api-token':
      return { type: 'api-token', id: principal.me.id, email: principal.me.email };
    default: {
      const unknown: never = principal;
      throw new Error(`unknown principal ${String(unknown)}`);
    }
  }
};

const API_TOKEN = /^Bearer[ ]+(pat_[^\s]+)$/i;
const principals = new WeakMap<FastifyRequest, AdminPrincipal>();

const notFound = (projectId: string): AppError =>
  new AppError('PROJECT_NOT_FOUND', `project ${projectId} not found`, { resource: 'project', projectId });
const forbidden = (permission: Permission): AppError =>
  new AppError('FORBIDDEN', `your role does not allow this (${permission})`, { permission });

/**
 * Authenticates every admin request before its body is read (the plugin's onRequest hook) and
 * checks each route's declared permission (Routes, once the path is parsed). A project the caller
 * has no role in answers 404, as if it did not exist.
 */
export class AdminAccess {
  constructor(
    private readonly guard: AdminGuard,
    private readonly services: ServiceClient,
    /** USER_SESSION_IDLE_TTL_SECONDS: the cookie's Max-Age, renewed with each use. */
    private readonly sessionIdleSeconds: number,
  ) {}

  /** Undefined for the admin token (no promise on its path); else a promise that stores the principal or rejects. */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    const cookie = sessionCookieOf(request);
    const bearer = request.headers.authorization;
    if (cookie !== null && bearer === undefined) return this.byCookie(request, reply, cookie);
    const apiToken = typeof bearer === 'string' ? API_TOKEN.exec(bearer.trim())?.[1] : undefined;
    if (apiToken !== undefined) return this.byApiToken(request, apiToken);
    const refused = this.guard.check(request);
    if (refused) return refused;
    principals.set(request, { kind: 'admin-token' });
    return undefined;
  }

  /** A person only (the auth routes): by session cookie or personal API token; UNAUTHORIZED otherwise. */
  async person(request: FastifyRequest, reply: FastifyReply): Promise<Extract<AdminPrincipal, { me: Me }>> {
    const cookie = sessionCookieOf(request);
    const bearer = request.headers.authorization;
    const apiToken = typeof bearer === 'string' ? API_TOKEN.exec(bearer.trim())?.[1] : undefined;
    if (apiToken !== undefined) await this.byApiToken(request, apiToken);
    else if (cookie !== null) await this.byCookie(request, reply, cookie);
    else throw new AppError('UNAUTHORIZED', 'not signed in');
    return principals.get(request) as Extract<AdminPrincipal, { me: Me }>;
  }

  /** The principal the hook stored; a route outside the admin plugin has none. */
  principalOf(request: FastifyRequest): AdminPrincipal {
    const principal = principals.get(request);
    if (!principal) throw new AppError('UNAUTHORIZED', 'not authenticated');
    return principal;
  }

  authorize(principal: AdminPrincipal, permission: Permission, projectId: string | undefined): void {
    if (principal.kind === 'admin-token') return;
    const { me } = principal;
    if (isProjectPermission(permission)) {
      if (projectId === undefined) throw new Error(`permission ${permission} declared on a route without :projectId`);
      const role = roleIn(me, projectId);
      if (role === null) throw notFound(projectId);
      if (!roleAllows(role, permission)) throw forbidden(permission);
      return;
    }
    switch (permission) {
      case 'global.projects.list':
        return;
      case 'global.projects.create':
      case 'global.users.manage':
        if (me.memberships.some((m) => m.role === 'owner')) return;
        throw forbidden(permission);
      case 'global.operations':
        throw forbidden(permission);
      default: {
        const unknown: never = permission;
        throw new Error(`unknown permission ${String(unknown)}`);
      }
    }
  }

  private async byCookie(request: FastifyRequest, reply: FastifyReply, token: string): Promise<void> {
    assertSameOrigin(request);
    const { me } = await this.services.send(AccountMessages.resolveUserSession, { token });
    // The cookie lives as long as the session: each use renews both.
    setSessionCookie(request, reply, token, this.sessionIdleSeconds);
    principals.set(request, { kind: 'user', me, idleSeconds: this.sessionIdleSeconds });
  }

  private async byApiToken(request: FastifyRequest, token: string): Promise<void> {
    const { me, tokenId } = await this.services.send(AccountMessages.resolveApiToken, { token });
    principals.set(request, { kind: 'api-token', me, tokenId: tokenId ?? '' });
  }
}

export const roleIn = (me: Me, projectId: string): Role | null => me.memberships.find((m) => m.projectId === projectId)?.role ?? null;
