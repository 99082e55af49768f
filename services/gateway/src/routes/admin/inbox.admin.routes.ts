import {
  AgentNoteList,
  CannedReply,
  CannedReplyList,
  CreateCannedReplyBody,
  InboxMessages,
  UpdateCannedReplyBody,
  Uuid,
} from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ProjectPath = z.object({ projectId: Uuid });
const CannedReplyPath = z.object({ projectId: Uuid, cannedReplyId: Uuid });
const ConversationPath = z.object({ projectId: Uuid, conversationId: Uuid });

/** The inbox's team data: canned replies (owner and admin manage them) and a conversation's internal notes. */
export const inboxAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: inbox' } as const;

  routes.add(
    {
      ...admin,
      permission: 'inbox.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/canned-replies',
      summary: "The project's canned replies, sorted by shortcut",
      params: ProjectPath,
      responses: { 200: { description: 'Canned replies', schema: CannedReplyList } },
    },
    async ({ params }) => services.send(InboxMessages.listCannedReplies, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'cannedReplies.manage',
      method: 'POST',
      url: '/admin/v1/projects/:projectId/canned-replies',
      summary: 'Add a canned reply (409 on a shortcut the project has; at most 500 per project)',
      params: ProjectPath,
      body: CreateCannedReplyBody,
      responses: { 201: { description: 'The canned reply', schema: CannedReply } },
    },
    async ({ params, body, actor, reply }) =>
      reply.status(201).send(await services.send(InboxMessages.createCannedReply, { ...params, actor, body })),
  );

  routes.add(
    {
      ...admin,
      permission: 'cannedReplies.manage',
      method: 'PATCH',
      url: '/admin/v1/projects/:projectId/canned-replies/:cannedReplyId',
      summary: 'Change a canned reply (the fields given)',
      params: CannedReplyPath,
      body: UpdateCannedReplyBody,
      responses: { 200: { description: 'The canned reply', schema: CannedReply } },
    },
    async ({ params, body, actor }) => services.send(InboxMessages.updateCannedReply, { ...params, actor, patch: body }),
  );

  routes.add(
    {
      ...admin,
      permission: 'cannedReplies.manage',
      method: 'DELETE',
      url: '/admin/v1/projects/:projectId/canned-replies/:cannedReplyId',
      summary: 'Delete a canned reply',
      params: CannedReplyPath,
      responses: { 204: { description: 'Deleted' } },
    },
    async ({ params, actor, reply }) => {
      await services.send(InboxMessages.deleteCannedReply, { ...params, actor });
      return reply.status(204).send();
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'inbox.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/conversations/:conversationId/notes',
      summary: "The conversation's internal notes, oldest first",
      params: ConversationPath,
      responses: { 200: { description: 'Notes', schema: AgentNoteList } },
    },
    async ({ params }) => services.send(InboxMessages.listNotes, params),
  );
};
