import { z } from 'zod';
import {
  AdminConversation,
  AdminConversationFilter,
  AdminListConversationsQuery,
  DislikedAnswer,
  ExportCursor,
} from '../admin/conversation.admin';
import { Uuid } from '../common';
import { pagedList } from '../v2/list';
import { defineMessage } from './define';

/** Visitor messages one `visitorMessageTexts` call reads at most. */
export const VISITOR_MESSAGE_TEXTS_MAX = 500;

/** The dashboard's reads over every conversation of a project (no visitor scope: admin only). */
export const ConversationAdminMessages = {
  list: defineMessage(
    'conversation.qry.admin-list.v1',
    z.object({ projectId: Uuid, query: AdminListConversationsQuery }),
    pagedList(AdminConversation),
  ),
  /** The export's pages: the filtered conversations oldest created first, after the cursor; `next` null at the end. */
  exportPage: defineMessage(
    'conversation.qry.admin-export-page.v1',
    z.object({ projectId: Uuid, filter: AdminConversationFilter, after: ExportCursor.nullable(), limit: z.number().int().min(1).max(500) }),
    z.object({ data: z.array(AdminConversation), next: ExportCursor.nullable() }),
  ),
  /** With its messages; CONVERSATION_NOT_FOUND for another project's conversation. */
  get: defineMessage('conversation.qry.admin-get.v1', z.object({ projectId: Uuid, conversationId: Uuid }), AdminConversation),
  dislikedAnswers: defineMessage(
    'conversation.qry.disliked-answers.v1',
    z.object({ projectId: Uuid, limit: z.number().int().min(1).max(100) }),
    z.object({ data: z.array(DislikedAnswer) }),
  ),
  /**
   * The clear text of these visitor messages, for insights (which keeps only ids: the text is
   * personal). A message of an erased conversation, or not a visitor's, is left out.
   */
  visitorMessageTexts: defineMessage(
    'conversation.qry.visitor-message-texts.v1',
    z.object({ projectId: Uuid, messageIds: z.array(Uuid).max(VISITOR_MESSAGE_TEXTS_MAX) }),
    z.object({ data: z.array(z.object({ messageId: Uuid, conversationId: Uuid, text: z.string() })) }),
  ),
} as const;
