import { type AgentInfo, AppError, IdentityMessages, type KeyInfo, type SessionInfo } from '@palaver/contracts';
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
    return this.services.send(IdentityMessages.resolveKey, { key: header.trim(), origin: originOf(request), type: 'private' });
  }

  /** The publishable key of the `apiKey` query parameter; a missing one is a 401 like any missing credential. */
  publishableKey(request: FastifyRequest): Promise<KeyInfo> {
    const apiKey = (request.query as Record<string, unknown> | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || apiKey === '') return Promise.reject(new AppError('UNAUTHORIZED', 'missing apiKey'));
    return this.services.send(IdentityMessages.resolveKey, { key: apiKey, origin: originOf(request), type: 'publishable' });
  }
}
