import { ApiKeyQuery, IdentityMessages, ListQnasQuery, SearchMessages, Uuid } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { originOf } from '../../auth/bearer';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

const ProjectPath = z.object({ projectId: Uuid });
const QnaPath = ProjectPath.extend({ qnaId: Uuid });

export const projectRoutes = (app: FastifyInstance, deps: GatewayDeps): void => {
  app.get('/v2/projects/current', async (request) => {
    const { apiKey } = parse(ApiKeyQuery, request.query, 'query');
    const key = await deps.services.send(IdentityMessages.resolveKey, {
      key: apiKey,
      origin: originOf(request),
      type: 'publishable',
    });
    const project = await deps.services.send(IdentityMessages.getProject, { projectId: key.projectId });
    return {
      id: project.id,
      name: project.name,
      description: project.description,
      chatWidgetConfig: project.chatWidgetConfig,
    };
  });

  // Public by the spec; the single entry is public too (decision in docs/api.md): Q&A is the
  // site's published help content, and ids are unguessable.
  app.get('/v2/projects/:projectId/qnas', async (request) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    const query = parse(ListQnasQuery, request.query, 'query');
    return deps.services.send(SearchMessages.listQnas, { projectId, query });
  });

  app.get('/v2/projects/:projectId/qnas/:qnaId', async (request) => {
    const { projectId, qnaId } = parse(QnaPath, request.params, 'path');
    return deps.services.send(SearchMessages.getQna, { projectId, qnaId });
  });
};
