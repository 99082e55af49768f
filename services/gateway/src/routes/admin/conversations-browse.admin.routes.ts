import { Readable } from 'node:stream';
import {
  AdminConversation,
  AdminExportConversationsQuery,
  AdminListConversationsQuery,
  ConversationAdminMessages,
  DislikedAnswer,
  DislikedAnswersQuery,
  pagedList,
} from '@palaver/contracts';
import { z } from 'zod';
import { busConversationSource, exportConversations } from '../../export/conversation-export';
import type { GatewayDeps } from '../../gateway.deps';
import type { AdminRoutes } from '../../http/routes';
import { dataList, ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

const CONTENT_TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/** The dashboard's view of every conversation of a project: browse, filter, read, export. */
export const conversationBrowseAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.get(
    '/admin/v1/projects/:projectId/conversations',
    {
      permission: 'conversations.read',
      summary: "The project's conversations, latest interaction first, filtered by status, handoff, visitor or time",
      query: AdminListConversationsQuery,
      responses: ok('Conversations', pagedList(AdminConversation)),
    },
    async ({ params, query }) => {
      await existingProject(services, params.projectId);
      return services.send(ConversationAdminMessages.list, { ...params, query });
    },
  );

  admin.get(
    '/admin/v1/projects/:projectId/conversations/export',
    {
      permission: 'conversations.read',
      summary: 'Export the filtered conversations: NDJSON (one conversation with its messages a line) or CSV (one message a row)',
      query: AdminExportConversationsQuery,
      responses: ok('The export, as a download', z.string()),
    },
    async ({ params, query, reply }) => {
      await existingProject(services, params.projectId);
      const { format, ...filter } = query;
      const source = busConversationSource(services, params.projectId);
      return reply
        .type(CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="conversations-${params.projectId}.${format}"`)
        .send(Readable.from(exportConversations(source, filter, format)));
    },
  );

  admin.get(
    '/admin/v1/projects/:projectId/conversations/:conversationId',
    {
      permission: 'conversations.read',
      summary: 'One conversation of the project with its messages, whoever the visitor',
      responses: ok('Conversation', AdminConversation),
    },
    async ({ params }) => services.send(ConversationAdminMessages.get, params),
  );

  admin.get(
    '/admin/v1/projects/:projectId/analytics/disliked-answers',
    {
      permission: 'analytics.read',
      summary: 'Answers whose latest feedback is a dislike, grouped by identical text, most disliked first',
      query: DislikedAnswersQuery,
      responses: ok('Disliked answers', dataList(DislikedAnswer)),
    },
    async ({ params, query }) => {
      await existingProject(services, params.projectId);
      return services.send(ConversationAdminMessages.dislikedAnswers, { ...params, limit: query.limit });
    },
  );
};
