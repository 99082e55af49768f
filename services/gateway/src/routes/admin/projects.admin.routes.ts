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
} from '@palaver/contracts';
import type { IdentityCache } from '../../auth/identity-cache';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, dataList, noContent, ok } from '../../openapi/responses';

/** Projects, assistants and keys: the dashboard's backend (identity service). */
export const projectAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps, identity: IdentityCache): void => {
  /** Identity announces a change to every gateway; this one applies it before answering, whatever the pub/sub latency. */
  const projectChanged = (projectId: string) => identity.apply({ kind: 'project-changed', projectId });

  admin.post(
    '/admin/v1/projects',
    {
      permission: 'global.projects.create',
      summary: 'Create a project (and its default assistant)',
      body: CreateProjectBody,
      responses: created('Project', ProjectRecord),
    },
    async ({ body, actor }) => services.send(IdentityMessages.createProject, { ...body, actor }),
  );

  admin.get(
    '/admin/v1/projects',
    {
      permission: 'global.projects.list',
      summary: 'Every project',
      responses: ok('Projects', dataList(ProjectRecord)),
    },
    async ({ principal }) => {
      const all = await services.send(IdentityMessages.listProjects, {});
      if (principal.kind === 'admin-token') return all;
      const mine = new Set(principal.me.memberships.map((m) => m.projectId));
      return { data: all.data.filter((project) => mine.has(project.id)) };
    },
  );

  admin.get(
    '/admin/v1/projects/:projectId',
    {
      permission: 'project.read',
      summary: 'One project',
      responses: ok('Project', ProjectRecord),
    },
    async ({ params }) => services.send(IdentityMessages.getProject, params),
  );

  admin.patch(
    '/admin/v1/projects/:projectId',
    {
      permission: 'project.update',
      summary: 'Update a project (chatWidgetConfig and limits merge field by field)',
      body: UpdateProjectBody,
      responses: ok('Project', ProjectRecord),
    },
    async ({ params, body, actor }) => {
      const project = await services.send(IdentityMessages.updateProject, { ...params, actor, patch: body });
      projectChanged(params.projectId);
      return project;
    },
  );

  admin.delete(
    '/admin/v1/projects/:projectId',
    {
      permission: 'project.delete',
      summary:
        'Delete a project: its keys, sessions and agents stop at once, its members and canned replies go; its conversations and knowledge are erased in the background',
      responses: noContent('Deleted'),
    },
    async ({ params, actor }) => {
      await services.send(IdentityMessages.deleteProject, { ...params, actor });
      projectChanged(params.projectId);
    },
  );

  admin.post(
    '/admin/v1/projects/:projectId/identity-secret',
    {
      permission: 'project.update',
      summary:
        'Create or rotate the identity secret that signs user tokens: shown in this answer only; the previous one verifies tokens 24 h more',
      responses: created('The new secret', CreatedIdentitySecret),
    },
    async ({ params, actor }) => {
      const secret = await services.send(IdentityMessages.rotateIdentitySecret, { ...params, actor });
      projectChanged(params.projectId);
      return secret;
    },
  );

  admin.post(
    '/admin/v1/projects/:projectId/assistants',
    {
      permission: 'project.update',
      summary: 'Create an assistant',
      body: CreateAssistantBody,
      responses: created('Assistant', AssistantRecord),
    },
    async ({ params, body, actor }) => services.send(IdentityMessages.createAssistant, { ...params, actor, body }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/assistants',
    {
      permission: 'project.read',
      summary: "The project's assistants",
      responses: ok('Assistants', dataList(AssistantRecord)),
    },
    async ({ params }) => services.send(IdentityMessages.listAssistants, params),
  );

  admin.patch(
    '/admin/v1/projects/:projectId/assistants/:assistantId',
    {
      permission: 'project.update',
      summary: "Update an assistant's name, instructions or model (null model: the configured default)",
      body: UpdateAssistantBody,
      responses: ok('Assistant', AssistantRecord),
    },
    async ({ params, body, actor }) => services.send(IdentityMessages.updateAssistant, { ...params, actor, patch: body }),
  );

  admin.post(
    '/admin/v1/projects/:projectId/keys',
    {
      permission: 'keys.manage',
      summary: 'Create a key: the full key is in this answer only',
      body: CreateKeyBody,
      responses: created('Key with its secret', CreatedKey),
    },
    async ({ params, body, actor }) => {
      const key = await services.send(IdentityMessages.createKey, { ...params, actor, body });
      identity.apply({ kind: 'key-created', projectId: params.projectId, keyId: key.id });
      return key;
    },
  );

  admin.get(
    '/admin/v1/projects/:projectId/keys',
    {
      permission: 'keys.read',
      summary: "The project's keys, without secrets",
      responses: ok('Keys', dataList(KeyRecord)),
    },
    async ({ params }) => services.send(IdentityMessages.listKeys, params),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/keys/:keyId',
    {
      permission: 'keys.manage',
      summary: 'Revoke a key and every session made with it',
      responses: ok('The revoked key', KeyRecord),
    },
    async ({ params, actor }) => {
      const key = await services.send(IdentityMessages.revokeKey, { ...params, actor });
      identity.apply({ kind: 'key-revoked', ...params });
      return key;
    },
  );
};
