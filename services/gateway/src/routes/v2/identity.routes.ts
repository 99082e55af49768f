import { IdentityMessages, InitIdentityBody } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../auth/bearer';
import { visitorSession } from '../../auth/visitor-session';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

export const identityRoutes = (app: FastifyInstance, deps: GatewayDeps): void => {
  app.post('/v2/identity/init', async (request, reply) => {
    const body = parse(InitIdentityBody, request.body, 'body');
    const result = await deps.services.send(IdentityMessages.initVisitor, { ...body, origin: originOf(request) });
    return reply.status(result.created ? 201 : 200).send({ sessionToken: result.sessionToken, visitor: result.visitor });
  });

  app.get('/v2/identity/me', async (request) => {
    const session = await visitorSession(deps, request);
    return deps.services.send(IdentityMessages.getVisitor, { projectId: session.projectId, visitorId: session.visitorId });
  });
};
