import {
  AgentNoteList,
  CannedReply,
  CannedReplyList,
  CreateCannedReplyBody,
  InboxMessages,
  UpdateCannedReplyBody,
} from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { created, noContent, ok } from '../../openapi/responses';

/** The inbox's team data: canned replies (owner and admin manage them) and a conversation's internal notes. */
export const inboxAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.get(
    '/admin/v1/projects/:projectId/canned-replies',
    {
      permission: 'inbox.read',
      summary: "The project's canned replies, sorted by shortcut",
      responses: ok('Canned replies', CannedReplyList),
    },
    async ({ params }) => services.send(InboxMessages.listCannedReplies, params),
  );

  admin.post(
    '/admin/v1/projects/:projectId/canned-replies',
    {
      permission: 'cannedReplies.manage',
      summary: 'Add a canned reply (409 on a shortcut the project has; at most 500 per project)',
      body: CreateCannedReplyBody,
      responses: created('The canned reply', CannedReply),
    },
    async ({ params, body, actor }) => services.send(InboxMessages.createCannedReply, { ...params, actor, body }),
  );

  admin.patch(
    '/admin/v1/projects/:projectId/canned-replies/:cannedReplyId',
    {
      permission: 'cannedReplies.manage',
      summary: 'Change a canned reply (the fields given)',
      body: UpdateCannedReplyBody,
      responses: ok('The canned reply', CannedReply),
    },
    async ({ params, body, actor }) => services.send(InboxMessages.updateCannedReply, { ...params, actor, patch: body }),
  );

  admin.delete(
    '/admin/v1/projects/:projectId/canned-replies/:cannedReplyId',
    {
      permission: 'cannedReplies.manage',
      summary: 'Delete a canned reply',
      responses: noContent('Deleted'),
    },
    async ({ params, actor }) => services.send(InboxMessages.deleteCannedReply, { ...params, actor }),
  );

  admin.get(
    '/admin/v1/projects/:projectId/conversations/:conversationId/notes',
    {
      permission: 'inbox.read',
      summary: "The conversation's internal notes, oldest first",
      responses: ok('Notes', AgentNoteList),
    },
    async ({ params }) => services.send(InboxMessages.listNotes, params),
  );
};
