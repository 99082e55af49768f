import { type AgentInfo, AppError, IdentityMessages, type KeyInfo, roleAllows, type SessionInfo, Uuid } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AdminAccess, roleIn } from './admin-access';
import { bearerOf, originOf } from './bearer';
import type { IdentityCache } from './identity-cache';

/**
 * Resolves the credential a route declares (identity checks expiry, revocation, type and origin;
 * its answers are cached with invalidation, see IdentityCache).
 */
export class Authenticator {
  constructor(
    private readonly identity: IdentityCache,
    private readonly services: ServiceClient,
    readonly access: AdminAccess,
  ) {}

  session(request: FastifyRequest): Promise<SessionInfo> {
    return this.identity.session(bearerOf(request), originOf(request));
  }

  privateKey(request: FastifyRequest): Promise<KeyInfo> {
    return this.identity.key(bearerOf(request), originOf(request), 'private');
  }

  /**
   * An agent token (`Authorization: Bearer ak_…`), looked up on every call so that a revocation is
   * immediate; or a signed-in person (session cookie) working the project named by `X-Project-Id`
   * as themself, when their role there allows acting on conversations.
   */
  async agent(request: FastifyRequest, reply: FastifyReply): Promise<AgentInfo> {
    if (request.headers.authorization === undefined && request.headers.cookie !== undefined) {
      const { me } = await this.access.person(request, reply);
      const parsed = Uuid.safeParse(request.headers['x-project-id']);
      if (!parsed.success) throw new AppError('UNAUTHORIZED', 'name the project with the X-Project-Id header');
      const role = roleIn(me, parsed.data);
      if (role === null) throw new AppError('PROJECT_NOT_FOUND', `project ${parsed.data} not found`, { resource: 'project' });
      if (!roleAllows(role, 'conversations.act')) throw new AppError('FORBIDDEN', 'your role does not allow working the inbox');
      return { agentId: me.id, projectId: parsed.data, name: me.name, image: me.image, email: me.email };
    }
    return this.services.send(IdentityMessages.resolveAgent, { token: bearerOf(request).slice(0, 200) });
  }

  /**
   * The admin token sees every project, so a route naming one it cannot find (unknown or deleted)
   * answers PROJECT_NOT_FOUND, as it does to a person without a role there; through the cache.
   */
  async assertProject(projectId: string): Promise<void> {
    await this.identity.project(projectId);
  }

  /** Surface B: the private key of the `x-service-key` header (a publishable key is 403, as on v2). */
  serviceKey(request: FastifyRequest): Promise<KeyInfo> {
    const header = request.headers['x-service-key'];
    if (typeof header !== 'string' || header.trim() === '') {
      return Promise.reject(new AppError('UNAUTHORIZED', 'missing x-service-key header'));
    }
    return this.identity.key(header.trim(), originOf(request), 'private');
  }

  /** The publishable key of the `apiKey` query parameter; a missing one is a 401 like any missing credential. */
  publishableKey(request: FastifyRequest): Promise<KeyInfo> {
    const apiKey = (request.query as Record<string, unknown> | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || apiKey === '') return Promise.reject(new AppError('UNAUTHORIZED', 'missing apiKey'));
    return this.identity.key(apiKey, originOf(request), 'publishable');
  }
}
