import { AppError, type KeyInfo, type SessionInfo } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';
import { bearerOf, originOf } from './bearer';
import type { IdentityCache } from './identity-cache';

/**
 * Resolves the credential a route declares (identity checks expiry, revocation, type and origin;
 * its answers are cached with invalidation, see IdentityCache).
 */
export class Authenticator {
  constructor(private readonly identity: IdentityCache) {}

  session(request: FastifyRequest): Promise<SessionInfo> {
    return this.identity.session(bearerOf(request), originOf(request));
  }

  privateKey(request: FastifyRequest): Promise<KeyInfo> {
    return this.identity.key(bearerOf(request), originOf(request), 'private');
  }

  /** The publishable key of the `apiKey` query parameter; a missing one is a 401 like any missing credential. */
  publishableKey(request: FastifyRequest): Promise<KeyInfo> {
    const apiKey = (request.query as Record<string, unknown> | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || apiKey === '') return Promise.reject(new AppError('UNAUTHORIZED', 'missing apiKey'));
    return this.identity.key(apiKey, originOf(request), 'publishable');
  }
}
