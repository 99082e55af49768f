import {
  CreateAssistantBody,
  CreateKeyBody,
  CreateProjectBody,
  IdentityMessages,
  UpdateProjectBody,
  Uuid,
} from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

const ProjectPath = z.object({ projectId: Uuid });
const KeyPath = ProjectPath.extend({ keyId: Uuid });

/** Projects, assistants and keys: the dashboard's backend (identity service). */
export const projectAdminRoutes = (app: FastifyInstance, { services }: GatewayDeps): void => {
  app.post('/admin/v1/projects', async (request, reply) => {
    const body = parse(CreateProjectBody, request.body, 'body');
    return reply.status(201).send(await services.send(IdentityMessages.createProject, body));
  });

  app.get('/admin/v1/projects', async () => services.send(IdentityMessages.listProjects, {}));

  app.get('/admin/v1/projects/:projectId', async (request) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    return services.send(IdentityMessages.getProject, { projectId });
  });

  app.patch('/admin/v1/projects/:projectId', async (request) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    const patch = parse(UpdateProjectBody, request.body, 'body');
    return services.send(IdentityMessages.updateProject, { projectId, patch });
  });

  app.post('/admin/v1/projects/:projectId/assistants', async (request, reply) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    const body = parse(CreateAssistantBody, request.body, 'body');
    return reply.status(201).send(await services.send(IdentityMessages.createAssistant, { projectId, body }));
  });

  app.get('/admin/v1/projects/:projectId/assistants', async (request) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    return services.send(IdentityMessages.listAssistants, { projectId });
  });

  app.post('/admin/v1/projects/:projectId/keys', async (request, reply) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    const body = parse(CreateKeyBody, request.body, 'body');
    return reply.status(201).send(await services.send(IdentityMessages.createKey, { projectId, body }));
  });

  app.get('/admin/v1/projects/:projectId/keys', async (request) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    return services.send(IdentityMessages.listKeys, { projectId });
  });

  app.delete('/admin/v1/projects/:projectId/keys/:keyId', async (request) => {
    const { projectId, keyId } = parse(KeyPath, request.params, 'path');
    return services.send(IdentityMessages.revokeKey, { projectId, keyId });
  });
};
