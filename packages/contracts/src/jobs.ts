import { z } from 'zod';
import { Uuid } from './common';
import { Retrieval } from './messages/search.messages';
import { ReplyTo, Streamed } from './tokens';
import { ChatMessage } from './v2/completion';
import { PageContext } from './v2/message';

export const GENERATE_REPLY_JOB = 'generate-reply';
export const GENERATE_COMPLETION_JOB = 'generate-completion';
export const INFERENCE_QUEUE = 'inference';

/** The job id of a reply: its message id, with the stream version for a regenerated one. */
export const replyJobId = (messageId: string, regeneratedAt?: number): string =>
  regeneratedAt === undefined ? messageId : `${messageId}-v${regeneratedAt}`;

/** How many Q&A entries and document chunks a reply is grounded on. */
export const RETRIEVAL_LIMITS = { qnaLimit: 3, chunkLimit: 5 } as const;

/** The retrieval query is the last user message, cut to this many characters. */
export const RETRIEVAL_QUERY_MAX_CHARS = 1_000;

/** What a reply to `question` (the last user message, trimmed) asks of search. */
export const replyRetrievalRequest = (projectId: string, question: string) => ({
  projectId,
  query: question.slice(0, RETRIEVAL_QUERY_MAX_CHARS),
  ...RETRIEVAL_LIMITS,
});

/** Reply to a visitor message; the result goes back to the conversation service. */
export const GenerateReplyJob = z.object({
  projectId: Uuid,
  conversationId: Uuid,
  assistantMessageId: Uuid,
  assistantId: Uuid.nullable(),
  history: z.array(ChatMessage),
  pageContext: PageContext.nullable(),
  /** The project lets visitors ask for a person: offer the model the `request_human_agent` tool. */
  handoffTool: z.boolean().optional(),
  replyTo: ReplyTo.optional(),
  streamed: Streamed,
  /**
   * What search returned for the question, asked by conversation while it stored the message;
   * absent (a regenerated reply, search down or slow), the worker asks search itself.
   */
  knowledge: Retrieval.optional(),
});
export type GenerateReplyJob = z.infer<typeof GenerateReplyJob>;

/** A stateless chat completion (POST /v2/chat/completions); only the token channel sees the result. */
export const GenerateCompletionJob = z.object({
  projectId: Uuid,
  replyId: Uuid,
  assistantId: Uuid.nullable(),
  messages: z.array(ChatMessage),
  replyTo: ReplyTo.optional(),
  streamed: Streamed,
});
export type GenerateCompletionJob = z.infer<typeof GenerateCompletionJob>;
