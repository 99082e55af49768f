import {
  DocumentBody,
  DocumentRecord,
  ListQnasQuery,
  pagedList,
  Qna,
  QnaBody,
  QueryOffset,
  queryInt,
  SearchMessages,
  UpdateDocumentBody,
  UpdateQnaBody,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, noContent, ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

const ListDocumentsQuery = z.object({ limit: queryInt(1, 100).default(20), offset: QueryOffset });

/** Q&A entries and documents of a project (search service); creating and listing check the project exists. */
export const knowledgeAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  const existing = (projectId: string) => existingProject(services, projectId);

  admin.get(
    '/admin/v1/projects/:projectId/qnas',
    {
      permission: 'knowledge.read',
      summary: "The project's Q&A entries",
      query: ListQnasQuery,
      responses: ok('Q&A entries', pagedList(Qna)),
    },
    async ({ params, query }) => services.send(SearchMessages.listQnas, { projectId: await existing(params.projectId), query }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/qnas',
    {
      permission: 'knowledge.write',
      summary: 'Create a Q&A entry',
      body: QnaBody,
      responses: created('Q&A entry', Qna),
    },
    async ({ params, body, actor }) =>
      services.send(SearchMessages.createQna, { projectId: await existing(params.projectId), actor, body }),
  );

  admin.patch(
    '/admin/v1/projects/:projectId/qnas/:qnaId',
    {
      permission: 'knowledge.write',
      summary: 'Update a Q&A entry',
      body: UpdateQnaBody,
      responses: ok('Q&A entry', Qna),
    },
    async ({ params, body, actor }) => services.send(SearchMessages.updateQna, { ...params, actor, patch: body }),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/qnas/:qnaId',
    {
      permission: 'knowledge.write',
      summary: 'Delete a Q&A entry',
      responses: noContent('Deleted'),
    },
    async ({ params, actor }) => services.send(SearchMessages.deleteQna, { ...params, actor }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/documents',
    {
      permission: 'knowledge.write',
      summary: 'Add a document: chunked, embedded and searchable when the call returns',
      body: DocumentBody,
      responses: created('Document', DocumentRecord),
    },
    async ({ params, body, actor }) =>
      services.send(SearchMessages.createDocument, { projectId: await existing(params.projectId), actor, body }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/documents',
    {
      permission: 'knowledge.read',
      summary: "The project's documents, newest first",
      query: ListDocumentsQuery,
      responses: ok('Documents', pagedList(DocumentRecord)),
    },
    async ({ params, query }) => services.send(SearchMessages.listDocuments, { projectId: await existing(params.projectId), ...query }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/documents/:documentId',
    {
      permission: 'knowledge.read',
      summary: 'One document',
      responses: ok('Document', DocumentRecord),
    },
    async ({ params }) => services.send(SearchMessages.getDocument, params),
  );

  admin.patch(
    '/admin/v1/projects/:projectId/documents/:documentId',
    {
      permission: 'knowledge.write',
      summary: 'Update a document (its chunks are replaced)',
      body: UpdateDocumentBody,
      responses: ok('Document', DocumentRecord),
    },
    async ({ params, body, actor }) => services.send(SearchMessages.updateDocument, { ...params, actor, patch: body }),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/documents/:documentId',
    {
      permission: 'knowledge.write',
      summary: 'Delete a document and its chunks',
      responses: noContent('Deleted'),
    },
    async ({ params, actor }) => services.send(SearchMessages.deleteDocument, { ...params, actor }),
  );
};
