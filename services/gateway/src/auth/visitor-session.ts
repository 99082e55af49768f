import { IdentityMessages, type SessionInfo } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../gateway.deps';
import { bearerOf, originOf } from './bearer';

/** The visitor session behind the request's bearer token (identity checks expiry, key and origin). */
export const visitorSession = (deps: GatewayDeps, request: FastifyRequest): Promise<SessionInfo> =>
  deps.services.send(IdentityMessages.resolveSession, { token: bearerOf(request), origin: originOf(request) });
