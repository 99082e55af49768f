import { z } from 'zod';
import { httpUrl, MAX_OFFSET, queryInt, Timestamp, Uuid } from '../common';
import { Feedback, MessageMetadata, MessageRole, MessageStatus, TextPart } from '../v2/message';
import { ChatWidgetConfig, QuickPrompt } from '../v2/project';

/** Surface B page sizes: default 10, 1 to 100 (the spec leaves them open). */
export const SURFACE_B_PAGE_SIZE = { default: 10, min: 1, max: 100 } as const;

/** The last page a client may ask for: with the largest page size, the same reach as MAX_OFFSET. */
export const SURFACE_B_MAX_PAGE = MAX_OFFSET / SURFACE_B_PAGE_SIZE.max;

/** A customer's id in the caller's app: the identified visitor's externalId (a user token's `sub`). */
export const AppUserId = z.string().min(1).max(100);

/** Attributes per call, and in all once merged with the stored ones. */
export const MAX_CUSTOMER_ATTRIBUTES_PER_CALL = 50;
export const MAX_CUSTOMER_ATTRIBUTES = 100;

/**
 * `page` and `pageSize` arrive as strings: a non-number is 400, a number out of bounds 422
 * (the v2 query rules). A page past the last one is an empty page.
 */
export const SurfaceBPaging = z.object({
  page: queryInt(1, SURFACE_B_MAX_PAGE).default(1),
  pageSize: queryInt(SURFACE_B_PAGE_SIZE.min, SURFACE_B_PAGE_SIZE.max).default(SURFACE_B_PAGE_SIZE.default),
});

export const surfaceBPage = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), page: z.number().int(), pageSize: z.number().int(), totalPages: z.number().int() });

export const SurfaceBProject = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string(),
  chatWidgetConfig: ChatWidgetConfig,
  quickPrompts: z.array(QuickPrompt),
});
export type SurfaceBProject = z.infer<typeof SurfaceBProject>;

export const CustomerAttributes = z
  .record(z.string().max(100), z.string().max(1000))
  .refine((a) => Object.keys(a).length <= MAX_CUSTOMER_ATTRIBUTES_PER_CALL, {
    message: `at most ${MAX_CUSTOMER_ATTRIBUTES_PER_CALL} attributes`,
  });

export const UpsertCustomerBody = z.object({
  name: z.string().max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  attributes: CustomerAttributes.optional(),
});
export type UpsertCustomerBody = z.infer<typeof UpsertCustomerBody>;

export const Customer = z.object({
  id: Uuid,
  attributes: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  projectId: Uuid,
  name: z.string().nullable(),
  email: z.string().nullable(),
  appUserId: z.string(),
});
export type Customer = z.infer<typeof Customer>;

export const ChatsQuery = SurfaceBPaging.extend({ filter: z.enum(['all', 'open', 'closed']).default('all') });

export const ChatLastMessage = z.object({
  id: Uuid,
  feedback: Feedback.nullable(),
  role: MessageRole,
  parts: z.array(TextPart),
});

export const ChatSummary = z.object({
  id: Uuid,
  status: z.enum(['open', 'closed']),
  createdAt: Timestamp,
  closedAt: Timestamp.nullable(),
  lastMessage: ChatLastMessage.nullable(),
});
export type ChatSummary = z.infer<typeof ChatSummary>;

export const ChatHumanAgent = z.object({ id: Uuid.nullable(), name: z.string().nullable(), image: z.string().nullable() });

export const ChatMessageB = z.object({
  id: Uuid,
  createdAt: Timestamp,
  parts: z.array(TextPart),
  chatId: Uuid,
  role: MessageRole,
  humanAgentId: Uuid.nullable(),
  feedback: Feedback.nullable(),
  feedbackAt: Timestamp.nullable(),
  status: MessageStatus.nullable(),
  error: z.string().nullable(),
  metadata: MessageMetadata,
  pageUrl: z.string().nullable(),
  humanAgent: ChatHumanAgent.nullable(),
});

export const Chat = z.object({
  id: Uuid,
  createdAt: Timestamp,
  closedAt: Timestamp.nullable(),
  status: z.enum(['open', 'closed']),
  customerId: Uuid,
  projectId: Uuid,
  humanAgentId: Uuid.nullable(),
  closeReason: z.string().nullable(),
  handoffAt: Timestamp.nullable(),
  isHumanHandled: z.boolean(),
  /** Spelled as the spec spells it. */
  lastInterationAt: Timestamp,
  humanAgent: ChatHumanAgent.nullable(),
  messages: z.array(ChatMessageB),
});
export type Chat = z.infer<typeof Chat>;

/** previousMessages items: the model's history instead of the stored one. */
export const PreviousMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().min(1).max(10_000),
});

export const ChatPostBody = z.object({
  message: z.object({
    role: z.literal('user'),
    parts: z
      .array(z.object({ type: z.literal('text'), text: z.string().max(10_000) }))
      .min(1)
      .max(20),
  }),
  streaming: z.boolean().default(true),
  messageId: Uuid.nullable().optional(),
  previousMessages: z.array(PreviousMessage).max(100).nullable().optional(),
  pageUrl: httpUrl(2000).nullable().optional(),
  pageContent: z.string().max(10_000).nullable().optional(),
});
export type ChatPostBody = z.infer<typeof ChatPostBody>;

export const QnasQuery = SurfaceBPaging.extend({ query: z.string().max(100).optional() });

export const QnaSummary = z.object({ id: Uuid, title: z.string(), createdAt: Timestamp, updatedAt: Timestamp });
