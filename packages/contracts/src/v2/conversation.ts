import { z } from 'zod';
import { HumanAgent, httpUrl, QueryOffset, queryInt, Timestamp, Uuid } from '../common';
import { Contact } from './contact';
import { Message, MessageRole, MessageStatus } from './message';

export const ConversationStatus = z.enum(['open', 'closed']);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

export const Conversation = z.object({
  object: z.literal('conversation'),
  id: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  status: ConversationStatus,
  closedAt: Timestamp.nullable(),
  closeReason: z.string().nullable(),
  lastInteractionAt: Timestamp,
  title: z.string().nullable(),
  isHumanHandled: z.boolean().optional(),
  humanAgent: HumanAgent.optional(),
  messages: z.array(Message).optional(),
  lastMessage: Message.nullable().optional(),
  /** The email (and name) the visitor left when nobody could answer; absent until then. */
  contact: Contact.nullable().optional(),
});
export type Conversation = z.infer<typeof Conversation>;

export const CreateConversationBody = z.object({ context: z.object({ pageUrl: httpUrl().optional() }).optional() }).default({});
export type CreateConversationBody = z.infer<typeof CreateConversationBody>;

export const ConversationOrderBy = z.enum([
  'id',
  'createdAt',
  'updatedAt',
  'lastInteractionAt',
  'status',
  'closedAt',
  'isHumanHandled',
  'title',
]);
export type ConversationOrderBy = z.infer<typeof ConversationOrderBy>;

export const ListConversationsQuery = z.object({
  limit: queryInt(1, 100).default(10),
  offset: QueryOffset,
  status: ConversationStatus.optional(),
  orderBy: ConversationOrderBy.default('lastInteractionAt'),
  orderDir: z.enum(['asc', 'desc']).default('desc'),
});
export type ListConversationsQuery = z.infer<typeof ListConversationsQuery>;

export const ListMessagesQuery = z.object({
  limit: queryInt(1, 1000).optional(),
  offset: QueryOffset,
  role: MessageRole.optional(),
  status: MessageStatus.optional(),
});
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

export const CloseConversationBody = z.object({ closeReason: z.string().max(1000).optional() }).default({});
export const CloseConversationResponse = z.object({ success: z.boolean(), message: z.string() });
export type CloseConversationResponse = z.infer<typeof CloseConversationResponse>;
