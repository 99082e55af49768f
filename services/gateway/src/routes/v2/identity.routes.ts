import { ErrorBody, IdentityMessages, InitIdentityBody, InitIdentityResponse, Visitor } from '@palaver/contracts';
import { originOf } from '../../auth/bearer';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import { visitorOf } from './visitor-of';

export const identityRoutes = (routes: Routes, deps: GatewayDeps, identity: IdentityCache): void => {
  routes.add(
    {
      method: 'POST',
      url: '/v2/identity/init',
      summary:
        "Start a session: on the device's anonymous visitor, or with a userToken signed by the site's backend on that identified visitor",
      tag: 'identity',
      auth: 'none',
      body: InitIdentityBody,
      responses: {
        201: { description: 'New visitor', schema: InitIdentityResponse },
        200: { description: 'Existing visitor, new session token', schema: InitIdentityResponse },
        401: {
          description: 'UNAUTHORIZED (the key), INVALID_USER_TOKEN, or USER_TOKEN_REQUIRED when the project requires verification',
          schema: ErrorBody,
        },
      },
    },
    async ({ body, request, reply }) => {
      const key = await identity.key(body.apiKey, originOf(request), 'publishable');
      const result = await deps.services.send(IdentityMessages.initVisitor, {
        key: { ...key, type: 'publishable' },
        saVid: body.saVid,
        userToken: body.userToken ?? null,
      });
      return reply.status(result.created ? 201 : 200).send({ sessionToken: result.sessionToken, visitor: result.visitor });
    },
  );

  routes.add(
    {
      method: 'GET',
      url: '/v2/identity/me',
      summary: 'The visitor of the session',
      tag: 'identity',
      auth: 'session',
      responses: ok('Visitor', Visitor),
    },
    async ({ session }) => deps.services.send(IdentityMessages.getVisitor, visitorOf(session)),
  );
};
