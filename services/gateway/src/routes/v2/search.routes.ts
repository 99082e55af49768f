import { IdentityMessages, SearchMessages, SearchQuery } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../auth/bearer';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

export const searchRoutes = (app: FastifyInstance, deps: GatewayDeps): void => {
  app.get('/v2/search', async (request) => {
    const { q, size, apiKey } = parse(SearchQuery, request.query, 'query');
    const key = await deps.services.send(IdentityMessages.resolveKey, {
      key: apiKey,
      origin: originOf(request),
      type: 'publishable',
    });
    return deps.services.send(SearchMessages.search, { projectId: key.projectId, q, size });
  });
};
