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
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { accepted, created, noContent, ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

const ListQuery = z.object({ limit: queryInt(1, 100).default(20), offset: QueryOffset });
const ListPagesQuery = ListQuery.extend({ status: SourcePageStatus.optional() });

/** Websites and sitemaps a project's knowledge is crawled from (search service); creating and listing check the project exists. */
export const sourcesAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  const existing = (projectId: string) => existingProject(services, projectId);

  admin.post(
    '/admin/v1/projects/:projectId/sources',
    {
      permission: 'knowledge.write',
      summary: 'Add a website or sitemap source: its first crawl is queued (a URL that may not be fetched is 422)',
      body: SourceBody,
      responses: created('Source', Source),
    },
    async ({ params, body, actor }) =>
      services.send(SearchMessages.createSource, { projectId: await existing(params.projectId), actor, body }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/sources',
    {
      permission: 'knowledge.read',
      summary: "The project's sources, newest first",
      query: ListQuery,
      responses: ok('Sources', pagedList(Source)),
    },
    async ({ params, query }) => services.send(SearchMessages.listSources, { projectId: await existing(params.projectId), ...query }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/sources/:sourceId',
    {
      permission: 'knowledge.read',
      summary: 'One source, with the page counters of its latest crawl (live while it crawls)',
      responses: ok('Source', Source),
    },
    async ({ params }) => services.send(SearchMessages.getSource, params),
  );

  admin.get(
    '/admin/v1/projects/:projectId/sources/:sourceId/pages',
    {
      permission: 'knowledge.read',
      summary: 'The pages the latest crawl found, by URL',
      query: ListPagesQuery,
      responses: ok('Pages', pagedList(SourcePage)),
    },
    async ({ params, query }) => services.send(SearchMessages.listSourcePages, { ...params, ...query }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/sources/:sourceId/sync',
    {
      permission: 'knowledge.write',
      summary: 'Crawl again now: changed pages replace their documents, gone ones lose them',
      responses: accepted('Source', Source),
    },
    async ({ params, actor }) => services.send(SearchMessages.syncSource, { ...params, actor }),
  );

  admin.patch(
    '/admin/v1/projects/:projectId/sources/:sourceId',
    {
      permission: 'knowledge.write',
      summary: "Change a source's settings (taken by its next crawl)",
      body: UpdateSourceBody,
      responses: ok('Source', Source),
    },
    async ({ params, body, actor }) => services.send(SearchMessages.updateSource, { ...params, actor, patch: body }),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/sources/:sourceId',
    {
      permission: 'knowledge.write',
      summary: 'Delete a source and every document it made',
      responses: noContent('Deleted'),
    },
    async ({ params, actor }) => services.send(SearchMessages.deleteSource, { ...params, actor }),
  );
};
