import {
  AssistantRecord,
  CreateAssistantBody,
  CreatedIdentitySecret,
  CreatedKey,
  CreateKeyBody,
  CreateProjectBody,
  IdentityMessages,
  KeyRecord,
  ProjectRecord,
  UpdateAssistantBody,
  UpdateProjectBody,
  Uuid,
} from '@palaver/contracts';
import { z } from 'zod';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ProjectPath = z.object({ projectId: Uuid });
const KeyPath = ProjectPath.extend({ keyId: Uuid });
const AssistantPath = ProjectPath.extend({ assistantId: Uuid });
const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** Projects, assistants and keys: the dashboard's backend (identity service). */
export const projectAdminRoutes = (routes: Routes, { services }: GatewayDeps, identity: IdentityCache): void => {
  const admin = { auth: 'admin', tag: 'admin: projects' } as const;

  routes.add(
    {
      ...admin,
      permission: 'global.projects.create',
      method: 'POST',
      url: '/admin/v1/projects',
      summary: 'Create a project (and its default assistant)',
      body: CreateProjectBody,
      responses: { 201: { description: 'Project', schema: ProjectRecord } },
    },
    async ({ body, actor, reply }) => reply.status(201).send(await services.send(IdentityMessages.createProject, { ...body, actor })),
  );

  routes.add(
    {
      ...admin,
      permission: 'global.projects.list',
      method: 'GET',
      url: '/admin/v1/projects',
      summary: 'Every project',
      responses: { 200: { description: 'Projects', schema: dataOf(ProjectRecord) } },
    },
    async ({ principal }) => {
      const all = await services.send(IdentityMessages.listProjects, {});
      if (principal.kind === 'admin-token') return all;
      const mine = new Set(principal.me.memberships.map((m) => m.projectId));
      return { data: all.data.filter((project) => mine.has(project.id)) };
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'project.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId',
      summary: 'One project',
      params: ProjectPath,
      responses: { 200: { description: 'Project', schema: ProjectRecord } },
    },
    async ({ params }) => services.send(IdentityMessages.getProject, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'project.update',
      method: 'PATCH',
      url: '/admin/v1/projects/:projectId',
      summary: 'Update a project (chatWidgetConfig and limits merge field by field)',
      params: ProjectPath,
      body: UpdateProjectBody,
      responses: { 200: { description: 'Project', schema: ProjectRecord } },
    },
    async ({ params, body, actor }) => {
      const project = await services.send(IdentityMessages.updateProject, { ...params, actor, patch: body });
      identity.apply({ kind: 'project-changed', projectId: params.projectId });
      return project;
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'project.delete',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId',
      summary:
        'Delete a project: its keys, sessions and agents stop at once, its members and canned replies go; its conversations and knowledge are erased in the background',
      params: ProjectPath,
      responses: { 204: { description: 'Deleted' } },
    },
    async ({ params, actor, reply }) => {
      await services.send(IdentityMessages.deleteProject, { ...params, actor });
      // Identity announces it to every gateway; this one drops it before answering, whatever the pub/sub latency.
      identity.apply({ kind: 'project-changed', projectId: params.projectId });
      return reply.status(204).send();
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'project.update',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/identity-secret',
      summary:
        'Create or rotate the identity secret that signs user tokens: shown in this answer only; the previous one verifies tokens 24 h more',
      params: ProjectPath,
      responses: { 201: { description: 'The new secret', schema: CreatedIdentitySecret } },
    },
    async ({ params, actor, reply }) => {
      const created = await services.send(IdentityMessages.rotateIdentitySecret, { ...params, actor });
      identity.apply({ kind: 'project-changed', projectId: params.projectId });
      return reply.status(201).send(created);
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'project.update',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/assistants',
      summary: 'Create an assistant',
      params: ProjectPath,
      body: CreateAssistantBody,
      responses: { 201: { description: 'Assistant', schema: AssistantRecord } },
    },
    async ({ params, body, actor, reply }) =>
      reply.status(201).send(await services.send(IdentityMessages.createAssistant, { ...params, actor, body })),
  );

  routes.add(
    {
      ...admin,
      permission: 'project.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/assistants',
      summary: "The project's assistants",
      params: ProjectPath,
      responses: { 200: { description: 'Assistants', schema: dataOf(AssistantRecord) } },
    },
    async ({ params }) => services.send(IdentityMessages.listAssistants, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'project.update',
      method: 'PATCH',
      url: '/admin/v1/projects/:projectId/assistants/:assistantId',
      summary: "Update an assistant's name, instructions or model (null model: the configured default)",
      params: AssistantPath,
      body: UpdateAssistantBody,
      responses: { 200: { description: 'Assistant', schema: AssistantRecord } },
    },
    async ({ params, body, actor }) => services.send(IdentityMessages.updateAssistant, { ...params, actor, patch: body }),
  );

  routes.add(
    {
      ...admin,
      permission: 'keys.manage',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/keys',
      summary: 'Create a key: the full key is in this answer only',
      params: ProjectPath,
      body: CreateKeyBody,
      responses: { 201: { description: 'Key with its secret', schema: CreatedKey } },
    },
    async ({ params, body, actor, reply }) => {
      const key = await services.send(IdentityMessages.createKey, { ...params, actor, body });
      identity.apply({ kind: 'key-created', projectId: params.projectId, keyId: key.id });
      return reply.status(201).send(key);
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'keys.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/keys',
      summary: "The project's keys, without secrets",
      params: ProjectPath,
      responses: { 200: { description: 'Keys', schema: dataOf(KeyRecord) } },
    },
    async ({ params }) => services.send(IdentityMessages.listKeys, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'keys.manage',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/keys/:keyId',
      summary: 'Revoke a key and every session made with it',
      params: KeyPath,
      responses: { 200: { description: 'The revoked key', schema: KeyRecord } },
    },
    async ({ params, actor }) => {
      const key = await services.send(IdentityMessages.revokeKey, { ...params, actor });
      // Identity announces it to every gateway; this one drops it before answering, whatever the pub/sub latency.
      identity.apply({ kind: 'key-revoked', ...params });
      return key;
    },
  );
};
