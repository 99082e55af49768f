import { ApiKeyQuery, IdentityMessages, ListQnasQuery, Project, pagedList, Qna, SearchMessages } from '@palaver/contracts';
import type { TeamAvailability } from '../../availability/team-availability';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { ok } from '../../openapi/responses';

export const projectRoutes = (routes: Routes, deps: GatewayDeps, team: TeamAvailability): void => {
  routes.add(
    {
      method: 'GET',
      url: '/v2/projects/current',
      summary: 'The project of a publishable key, with its chat widget configuration and whether a person can answer now',
      tag: 'projects',
      auth: 'publishableKey',
      query: ApiKeyQuery,
      responses: ok('Project', Project),
    },
    async ({ key }) => {
      const record = await deps.services.send(IdentityMessages.getProject, { projectId: key.projectId });
      return { ...Project.parse(record), humanAgents: await team.of(record) };
    },
  );

  // Public by the spec; the single entry is public too (docs/api.md): Q&A is the site's
  // published help content, and ids are unguessable.
  routes.add(
    {
      method: 'GET',
      url: '/v2/projects/:projectId/qnas',
      summary: "The project's Q&A entries (full-text `query` on the question)",
      tag: 'projects',
      auth: 'none',
      query: ListQnasQuery,
      responses: ok('List of Q&A entries', pagedList(Qna)),
    },
    async ({ params, query }) => deps.services.send(SearchMessages.listQnas, { projectId: params.projectId, query }),
  );

  routes.add(
    {
      method: 'GET',
      url: '/v2/projects/:projectId/qnas/:qnaId',
      summary: 'One Q&A entry',
      tag: 'projects',
      auth: 'none',
      responses: ok('Q&A entry', Qna),
    },
    async ({ params }) => deps.services.send(SearchMessages.getQna, params),
  );
};
