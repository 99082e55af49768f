import { z } from 'zod';
import { HumanAgent, httpUrl, MAX_URL, nonBlank, Timestamp, Uuid } from '../common';

export const MessageRole = z.enum(['assistant', 'human_agent', 'user']);
export type MessageRole = z.infer<typeof MessageRole>;
export const MessageStatus = z.enum(['streaming', 'complete', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;
export const Feedback = z.enum(['like', 'dislike']);
export type Feedback = z.infer<typeof Feedback>;

export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export type TextPart = z.infer<typeof TextPart>;

/** A document an assistant reply was grounded on (docs/api.md, "Citations"). */
export const ReplySource = z.object({ title: z.string(), url: z.string() });
export type ReplySource = z.infer<typeof ReplySource>;

export const MessageMetadata = z.object({
  humanAgent: HumanAgent.nullable(),
  pageUrl: z.string().nullable(),
  pageTitle: z.string().nullable(),
  textSelection: z.string().nullable(),
  /** Assistant replies: the documents the reply drew on (empty when none). */
  sources: z.array(ReplySource).optional(),
});
export type MessageMetadata = z.infer<typeof MessageMetadata>;

export const Message = z.object({
  object: z.literal('message'),
  id: Uuid,
  createdAt: Timestamp,
  chatId: Uuid,
  role: MessageRole,
  parts: z.array(TextPart),
  status: MessageStatus.nullable(),
  error: z.string().nullable(),
  feedback: Feedback.nullable(),
  feedbackAt: Timestamp.nullable(),
  metadata: z.union([z.string(), MessageMetadata]),
  title: z.string().nullable().optional(),
});
export type Message = z.infer<typeof Message>;

export const PageContext = z.object({
  url: z.string().max(MAX_URL).optional(),
  title: z.string().max(500).optional(),
  content: z.string().max(10_000).optional(),
  textSelection: z.string().max(5_000).optional(),
});
export type PageContext = z.infer<typeof PageContext>;
/** The page context a client sends: its URL is an http(s) one (stored events keep `PageContext`). */
export const PageContextInput = PageContext.extend({ url: httpUrl().optional() });

export const PostMessageBody = z.object({
  content: nonBlank(z.string().min(1).max(10_000)),
  stream: z.boolean().default(false),
  pageContext: PageContextInput.nullable().optional(),
});
export type PostMessageBody = z.infer<typeof PostMessageBody>;

export const FeedbackBody = z.object({ feedback: Feedback.nullable() });
export type FeedbackBody = z.infer<typeof FeedbackBody>;
export const FeedbackResponse = z.object({ feedback: Feedback.nullable() });

/** POST /v2/conversations/{id}/stop: whether a reply was in progress and is now stopped, and which. */
export const StopReplyResponse = z.object({ stopped: z.boolean(), messageId: Uuid.nullable() });
export type StopReplyResponse = z.infer<typeof StopReplyResponse>;
