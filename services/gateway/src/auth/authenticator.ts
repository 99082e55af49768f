import { type AgentInfo, AppError, IdentityMessages, type KeyInfo, type SessionInfo } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { FastifyRequest } from 'fastify';
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
  ) {}

  session(request: FastifyRequest): Promise<SessionInfo> {
    return this.identity.session(bearerOf(request), originOf(request));
  }

  privateKey(request: FastifyRequest): Promise<KeyInfo> {
    return this.identity.key(bearerOf(request), originOf(request), 'private');
  }

  /** An agent token (`Authorization: Bearer ak_…`), looked up on every call so that a revocation is immediate. */
  agent(request: FastifyRequest): Promise<AgentInfo> {
    return this.services.send(IdentityMessages.resolveAgent, { token: bearerOf(request).slice(0, 200) });
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
