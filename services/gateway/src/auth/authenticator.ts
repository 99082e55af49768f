import { AppError, IdentityMessages, type KeyInfo, type SessionInfo } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { FastifyRequest } from 'fastify';
import { bearerOf, originOf } from './bearer';

/** Resolves the credential a route declares (identity checks expiry, revocation, type and origin). */
export class Authenticator {
  constructor(private readonly services: ServiceClient) {}

  session(request: FastifyRequest): Promise<SessionInfo> {
    return this.services.send(IdentityMessages.resolveSession, { token: bearerOf(request), origin: originOf(request) });
  }

  privateKey(request: FastifyRequest): Promise<KeyInfo> {
    return this.services.send(IdentityMessages.resolveKey, { key: bearerOf(request), origin: originOf(request), type: 'private' });
  }

  /** The publishable key of the `apiKey` query parameter; a missing one is a 401 like any missing credential. */
  publishableKey(request: FastifyRequest): Promise<KeyInfo> {
    const apiKey = (request.query as Record<string, unknown> | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || apiKey === '') return Promise.reject(new AppError('UNAUTHORIZED', 'missing apiKey'));
    return this.services.send(IdentityMessages.resolveKey, { key: apiKey, origin: originOf(request), type: 'publishable' });
  }
}
