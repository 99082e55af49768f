import { z } from 'zod';
import { QueryOffset, queryInt, Timestamp, Uuid } from '../common';
import { Conversation, ConversationStatus } from '../v2/conversation';

/** "true"/"false" in a query string; a boolean once parsed (the same schema checks the bus message). */
const QueryBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);

/** The dashboard's filters over every conversation of a project. */
export const AdminConversationFilter = z.object({
  status: ConversationStatus.optional(),
  humanHandled: QueryBoolean.optional(),
  visitorId: Uuid.optional(),
  /** Conversations whose last interaction is at or after / before these instants. */
  from: Timestamp.max(30).optional(),
  to: Timestamp.max(30).optional(),
});
export type AdminConversationFilter = z.infer<typeof AdminConversationFilter>;

export const AdminListConversationsQuery = AdminConversationFilter.extend({
  limit: queryInt(1, 100).default(20),
  offset: QueryOffset,
  orderDir: z.enum(['asc', 'desc']).default('desc'),
});
export type AdminListConversationsQuery = z.infer<typeof AdminListConversationsQuery>;

export const ExportFormat = z.enum(['ndjson', 'csv']);
/**
 * Where an export stands: the last conversation it wrote, in creation order. A conversation's
 * creation never changes, so conversations written to during the export keep their place (no
 * skip, no repeat); conversations created meanwhile come at the end.
 */
export const ExportCursor = z.object({ createdAt: Timestamp, id: Uuid });
export type ExportCursor = z.infer<typeof ExportCursor>;
export const AdminExportConversationsQuery = AdminConversationFilter.extend({ format: ExportFormat.default('ndjson') });
export type AdminExportConversationsQuery = z.infer<typeof AdminExportConversationsQuery>;

/** A conversation as the dashboard sees it: whose it is and how long it is. */
export const AdminConversation = Conversation.extend({
  visitorId: Uuid,
  pageUrl: z.string().nullable(),
  messageCount: z.number().int(),
});
export type AdminConversation = z.infer<typeof AdminConversation>;

/** Assistant answers whose latest feedback is a dislike, grouped by identical text, most disliked first. */
export const DislikedAnswer = z.object({
  answer: z.string(),
  /** The visitor message the answer replied to (of the latest disliked occurrence). */
  question: z.string().nullable(),
  dislikes: z.number().int(),
  lastDislikedAt: Timestamp.nullable(),
  conversationId: Uuid,
  messageId: Uuid,
});
export type DislikedAnswer = z.infer<typeof DislikedAnswer>;
export const DislikedAnswersQuery = z.object({ limit: queryInt(1, 100).default(10) });
