import {
  DocumentBody,
  IdentityMessages,
  ListQnasQuery,
  QnaBody,
  QueryOffset,
  SearchMessages,
  UpdateDocumentBody,
  UpdateQnaBody,
  Uuid,
  queryInt,
} from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

const ProjectPath = z.object({ projectId: Uuid });
const QnaPath = ProjectPath.extend({ qnaId: Uuid });
const DocumentPath = ProjectPath.extend({ documentId: Uuid });
const ListDocumentsQuery = z.object({ limit: queryInt(1, 100).default(20), offset: QueryOffset });

/** Q&A entries and documents of a project (search service); the project must exist. */
export const knowledgeAdminRoutes = (app: FastifyInstance, { services }: GatewayDeps): void => {
  const projectOf = async (params: unknown): Promise<string> => {
    const { projectId } = parse(ProjectPath, params, 'path');
    await services.send(IdentityMessages.getProject, { projectId });
    return projectId;
  };

  app.get('/admin/v1/projects/:projectId/qnas', async (request) => {
    const projectId = await projectOf(request.params);
    const query = parse(ListQnasQuery, request.query, 'query');
    return services.send(SearchMessages.listQnas, { projectId, query });
  });

  app.post('/admin/v1/projects/:projectId/qnas', async (request, reply) => {
    const projectId = await projectOf(request.params);
    const body = parse(QnaBody, request.body, 'body');
    return reply.status(201).send(await services.send(SearchMessages.createQna, { projectId, body }));
  });

  app.patch('/admin/v1/projects/:projectId/qnas/:qnaId', async (request) => {
    const { projectId, qnaId } = parse(QnaPath, request.params, 'path');
    const patch = parse(UpdateQnaBody, request.body, 'body');
    return services.send(SearchMessages.updateQna, { projectId, qnaId, patch });
  });

  app.delete('/admin/v1/projects/:projectId/qnas/:qnaId', async (request, reply) => {
    const { projectId, qnaId } = parse(QnaPath, request.params, 'path');
    await services.send(SearchMessages.deleteQna, { projectId, qnaId });
    return reply.status(204).send();
  });

  app.post('/admin/v1/projects/:projectId/documents', async (request, reply) => {
    const projectId = await projectOf(request.params);
    const body = parse(DocumentBody, request.body, 'body');
    return reply.status(201).send(await services.send(SearchMessages.createDocument, { projectId, body }));
  });

  app.get('/admin/v1/projects/:projectId/documents', async (request) => {
    const projectId = await projectOf(request.params);
    const { limit, offset } = parse(ListDocumentsQuery, request.query, 'query');
    return services.send(SearchMessages.listDocuments, { projectId, limit, offset });
  });

  app.get('/admin/v1/projects/:projectId/documents/:documentId', async (request) => {
    const { projectId, documentId } = parse(DocumentPath, request.params, 'path');
    return services.send(SearchMessages.getDocument, { projectId, documentId });
  });

  app.patch('/admin/v1/projects/:projectId/documents/:documentId', async (request) => {
    const { projectId, documentId } = parse(DocumentPath, request.params, 'path');
    const patch = parse(UpdateDocumentBody, request.body, 'body');
    return services.send(SearchMessages.updateDocument, { projectId, documentId, patch });
  });

  app.delete('/admin/v1/projects/:projectId/documents/:documentId', async (request, reply) => {
    const { projectId, documentId } = parse(DocumentPath, request.params, 'path');
    await services.send(SearchMessages.deleteDocument, { projectId, documentId });
    return reply.status(204).send();
  });
};
