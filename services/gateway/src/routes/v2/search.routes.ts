import { SearchMessages, SearchQuery, SearchResponse } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { ok } from '../../openapi/responses';

export const searchRoutes = (routes: Routes, deps: GatewayDeps): void => {
  routes.add(
    {
      method: 'GET',
      url: '/v2/search',
      summary: "Semantic search over the project's knowledge base, best first",
      tag: 'search',
      auth: 'publishableKey',
      query: SearchQuery,
      responses: ok('Results', SearchResponse),
    },
    async ({ key, query }) => deps.services.send(SearchMessages.search, { projectId: key.projectId, q: query.q, size: query.size }),
  );
};
