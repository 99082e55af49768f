import {
  pagedList,
  QueryOffset,
  queryInt,
  SearchMessages,
  Source,
  SourceBody,
  SourcePage,
  SourcePageStatus,
  UpdateSourceBody,
  Uuid,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { existingProject } from './existing-project';

const ProjectPath = z.object({ projectId: Uuid });
const SourcePath = ProjectPath.extend({ sourceId: Uuid });
const ListQuery = z.object({ limit: queryInt(1, 100).default(20), offset: QueryOffset });
const ListPagesQuery = ListQuery.extend({ status: SourcePageStatus.optional() });

/** Websites and sitemaps a project's knowledge is crawled from (search service); creating and listing check the project exists. */
export const sourcesAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: knowledge' } as const;
  const existing = (projectId: string) => existingProject(services, projectId);

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/sources',
      summary: 'Add a website or sitemap source: its first crawl is queued (a URL that may not be fetched is 422)',
      params: ProjectPath,
      body: SourceBody,
      responses: { 201: { description: 'Source', schema: Source } },
    },
    async ({ params, body, actor, reply }) =>
      reply
        .status(201)
        .send(await services.send(SearchMessages.createSource, { projectId: await existing(params.projectId), actor, body })),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/sources',
      summary: "The project's sources, newest first",
      params: ProjectPath,
      query: ListQuery,
      responses: { 200: { description: 'Sources', schema: pagedList(Source) } },
    },
    async ({ params, query }) => services.send(SearchMessages.listSources, { projectId: await existing(params.projectId), ...query }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/sources/:sourceId',
      summary: 'One source, with the page counters of its latest crawl (live while it crawls)',
      params: SourcePath,
      responses: { 200: { description: 'Source', schema: Source } },
    },
    async ({ params }) => services.send(SearchMessages.getSource, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/sources/:sourceId/pages',
      summary: 'The pages the latest crawl found, by URL',
      params: SourcePath,
      query: ListPagesQuery,
      responses: { 200: { description: 'Pages', schema: pagedList(SourcePage) } },
    },
    async ({ params, query }) => services.send(SearchMessages.listSourcePages, { ...params, ...query }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/sources/:sourceId/sync',
      summary: 'Crawl again now: changed pages replace their documents, gone ones lose them',
      params: SourcePath,
      responses: { 202: { description: 'Source', schema: Source } },
    },
    async ({ params, actor, reply }) => reply.status(202).send(await services.send(SearchMessages.syncSource, { ...params, actor })),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'PATCH',
      url: '/admin/v1/projects/:projectId/sources/:sourceId',
      summary: "Change a source's settings (taken by its next crawl)",
      params: SourcePath,
      body: UpdateSourceBody,
      responses: { 200: { description: 'Source', schema: Source } },
    },
    async ({ params, body, actor }) => services.send(SearchMessages.updateSource, { ...params, actor, patch: body }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/sources/:sourceId',
      summary: 'Delete a source and every document it made',
      params: SourcePath,
      responses: { 204: { description: 'Deleted' } },
    },
    async ({ params, actor, reply }) => {
      await services.send(SearchMessages.deleteSource, { ...params, actor });
      return reply.status(204).send();
    },
  );
};
