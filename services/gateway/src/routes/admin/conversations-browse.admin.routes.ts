import { Readable } from 'node:stream';
import {
  AdminConversation,
  AdminExportConversationsQuery,
  AdminListConversationsQuery,
  ConversationAdminMessages,
  DislikedAnswer,
  DislikedAnswersQuery,
  IdentityMessages,
  pagedList,
  Uuid,
} from '@palaver/contracts';
import { z } from 'zod';
import { busConversationSource, exportConversations } from '../../export/conversation-export';
import type { GatewayDeps } from '../../gateway.deps';
import type { Routes } from '../../http/routes';

const ProjectPath = z.object({ projectId: Uuid });
const ConversationPath = ProjectPath.extend({ conversationId: Uuid });
const CONTENT_TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/** The dashboard's view of every conversation of a project: browse, filter, read, export. */
export const conversationBrowseAdminRoutes = (routes: Routes, { services }: GatewayDeps): void => {
  const admin = { auth: 'admin', tag: 'admin: conversations' } as const;

  routes.add(
    {
      ...admin,
      permission: 'conversations.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/conversations',
      summary: "The project's conversations, latest interaction first, filtered by status, handoff, visitor or time",
      params: ProjectPath,
      query: AdminListConversationsQuery,
      responses: { 200: { description: 'Conversations', schema: pagedList(AdminConversation) } },
    },
    async ({ params, query }) => {
      await services.send(IdentityMessages.getProject, params);
      return services.send(ConversationAdminMessages.list, { ...params, query });
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'conversations.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/conversations/export',
      summary: 'Export the filtered conversations: NDJSON (one conversation with its messages a line) or CSV (one message a row)',
      params: ProjectPath,
      query: AdminExportConversationsQuery,
      responses: { 200: { description: 'The export, as a download', schema: z.string() } },
    },
    async ({ params, query, reply }) => {
      await services.send(IdentityMessages.getProject, params);
      const { format, ...filter } = query;
      const source = busConversationSource(services, params.projectId);
      return reply
        .type(CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="conversations-${params.projectId}.${format}"`)
        .send(Readable.from(exportConversations(source, filter, format)));
    },
  );

  routes.add(
    {
      ...admin,
      permission: 'conversations.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/conversations/:conversationId',
      summary: 'One conversation of the project with its messages, whoever the visitor',
      params: ConversationPath,
      responses: { 200: { description: 'Conversation', schema: AdminConversation } },
    },
    async ({ params }) => services.send(ConversationAdminMessages.get, params),
  );

  routes.add(
    {
      ...admin,
      permission: 'analytics.read',
      method: 'GET',
      url: '/admin/v1/projects/:projectId/analytics/disliked-answers',
      summary: 'Answers whose latest feedback is a dislike, grouped by identical text, most disliked first',
      params: ProjectPath,
      query: DislikedAnswersQuery,
      responses: { 200: { description: 'Disliked answers', schema: z.object({ data: z.array(DislikedAnswer) }) } },
    },
    async ({ params, query }) => {
      await services.send(IdentityMessages.getProject, params);
      return services.send(ConversationAdminMessages.dislikedAnswers, { ...params, limit: query.limit });
    },
  );
};
