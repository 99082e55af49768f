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
  Uuid,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';
import { existingProject } from './existing-project';

const ProjectPath = z.object({ projectId: Uuid });
const QnaPath = ProjectPath.extend({ qnaId: Uuid });
const DocumentPath = ProjectPath.extend({ documentId: Uuid });
const ListDocumentsQuery = z.object({ limit: queryInt(1, 100).default(20), offset: QueryOffset });

/** Q&A entries and documents of a project (search service); creating and listing check the project exists. */
export const knowledgeAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: knowledge' } as const;
  const existing = (projectId: string) => existingProject(services, projectId);

  routes.add(
    {
      ...admin,
      permission: 'knowledge.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/qnas',
      summary: "The project's Q&A entries",
      params: ProjectPath,
      query: ListQnasQuery,
      responses: { 200: { description: 'Q&A entries', schema: pagedList(Qna) } },
    },
    async ({ params, query }) => services.send(SearchMessages.listQnas, { projectId: await existing(params.projectId), query }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/qnas',
      summary: 'Create a Q&A entry',
      params: ProjectPath,
      body: QnaBody,
      responses: { 201: { description: 'Q&A entry', schema: Qna } },
    },
    async ({ params, body, actor, reply }) =>
      reply.status(201).send(await services.send(SearchMessages.createQna, { projectId: await existing(params.projectId), actor, body })),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'PATCH',
      url: '/admin/v1/projects/:projectId/qnas/:qnaId',
      summary: 'Update a Q&A entry',
      params: QnaPath,
      body: UpdateQnaBody,
      responses: { 200: { description: 'Q&A entry', schema: Qna } },
    },
    async ({ params, body, actor }) => services.send(SearchMessages.updateQna, { ...params, actor, patch: body }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/qnas/:qnaId',
      summary: 'Delete a Q&A entry',
      params: QnaPath,
      responses: { 204: { description: 'Deleted' } },
    },
    async ({ params, actor, reply }) => {
      await services.send(SearchMessages.deleteQna, { ...params, actor });
      return reply.status(204).send();
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/documents',
      summary: 'Add a document: chunked, embedded and searchable when the call returns',
      params: ProjectPath,
      body: DocumentBody,
      responses: { 201: { description: 'Document', schema: DocumentRecord } },
    },
    async ({ params, body, actor, reply }) =>
      reply
        .status(201)
        .send(await services.send(SearchMessages.createDocument, { projectId: await existing(params.projectId), actor, body })),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/documents',
      summary: "The project's documents, newest first",
      params: ProjectPath,
      query: ListDocumentsQuery,
      responses: { 200: { description: 'Documents', schema: pagedList(DocumentRecord) } },
    },
    async ({ params, query }) => services.send(SearchMessages.listDocuments, { projectId: await existing(params.projectId), ...query }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/documents/:documentId',
      summary: 'One document',
      params: DocumentPath,
      responses: { 200: { description: 'Document', schema: DocumentRecord } },
    },
    async ({ params }) => services.send(SearchMessages.getDocument, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'PATCH',
      url: '/admin/v1/projects/:projectId/documents/:documentId',
      summary: 'Update a document (its chunks are replaced)',
      params: DocumentPath,
      body: UpdateDocumentBody,
      responses: { 200: { description: 'Document', schema: DocumentRecord } },
    },
    async ({ params, body, actor }) => services.send(SearchMessages.updateDocument, { ...params, actor, patch: body }),
  );

  routes.add(
    {
      ...admin,
      permission: 'knowledge.write',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/documents/:documentId',
      summary: 'Delete a document and its chunks',
      params: DocumentPath,
      responses: { 204: { description: 'Deleted' } },
    },
    async ({ params, actor, reply }) => {
      await services.send(SearchMessages.deleteDocument, { ...params, actor });
      return reply.status(204).send();
    },
  );
};
