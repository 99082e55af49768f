import { z } from 'zod';
import { HumanAgent, Uuid } from '../common';
import { FinishReason, Usage } from '../v2/completion';
import {
  CloseConversationResponse,
  Conversation,
  ListConversationsQuery,
  ListMessagesQuery,
} from '../v2/conversation';
import { pagedList, plainList } from '../v2/list';
import { Feedback, FeedbackResponse, Message, PageContext, ReplySource } from '../v2/message';
import { Ack, defineMessage } from './define';

/** Who asks: every visitor-scoped query carries the tenant and the visitor. */
const VisitorScope = z.object({ projectId: Uuid, visitorId: Uuid });

export const PostMessageOutcome = z.discriminatedUnion('kind', [
  /** The AI will answer: the reply's id is the one the gateway chose (its token channel). */
  z.object({ kind: z.literal('reply'), userMessage: Message, assistantMessageId: Uuid }),
  /** A human agent handles the conversation: the message waits for them. */
  z.object({ kind: z.literal('queued'), userMessage: Message }),
]);
export type PostMessageOutcome = z.infer<typeof PostMessageOutcome>;

export const ConversationMessages = {
  create: defineMessage(
    'conversation.cmd.create.v1',
    VisitorScope.extend({ pageUrl: z.string().nullable() }),
    Conversation,
  ),
  list: defineMessage(
    'conversation.qry.list.v1',
    VisitorScope.extend({ query: ListConversationsQuery }),
    pagedList(Conversation),
  ),
  get: defineMessage('conversation.qry.get.v1', VisitorScope.extend({ conversationId: Uuid }), Conversation),
  listMessages: defineMessage(
    'conversation.qry.list-messages.v1',
    VisitorScope.extend({ conversationId: Uuid, query: ListMessagesQuery }),
    plainList(Message),
  ),
  postMessage: defineMessage(
    'conversation.cmd.post-message.v1',
    VisitorScope.extend({
      conversationId: Uuid,
      content: z.string().min(1).max(10_000),
      pageContext: PageContext.nullable(),
      assistantMessageId: Uuid,
      assistantId: Uuid.nullable(),
    }),
    PostMessageOutcome,
  ),
  close: defineMessage(
    'conversation.cmd.close.v1',
    VisitorScope.extend({ conversationId: Uuid, closeReason: z.string().nullable() }),
    CloseConversationResponse,
  ),
  setFeedback: defineMessage(
    'conversation.cmd.set-feedback.v1',
    VisitorScope.extend({ messageId: Uuid, feedback: Feedback.nullable() }),
    FeedbackResponse,
  ),
  /** From inference: the reply is done. Idempotent for the same message. */
  completeReply: defineMessage(
    'conversation.cmd.complete-reply.v1',
    z.object({
      projectId: Uuid,
      conversationId: Uuid,
      messageId: Uuid,
      text: z.string(),
      finishReason: FinishReason,
      usage: Usage,
      /** The documents the reply drew on; absent from an inference worker that predates citations. */
      sources: z.array(ReplySource).optional(),
    }),
    Ack,
  ),
  failReply: defineMessage(
    'conversation.cmd.fail-reply.v1',
    z.object({
      projectId: Uuid,
      conversationId: Uuid,
      messageId: Uuid,
      error: z.string(),
      partialText: z.string(),
    }),
    Ack,
  ),
  /** The agents' side (admin API for now): hand the conversation to a human. */
  handoff: defineMessage(
    'conversation.cmd.handoff.v1',
    z.object({ projectId: Uuid, conversationId: Uuid, humanAgent: HumanAgent }),
    Conversation,
  ),
  postAgentMessage: defineMessage(
    'conversation.cmd.post-agent-message.v1',
    z.object({ projectId: Uuid, conversationId: Uuid, content: z.string().min(1).max(10_000) }),
    Message,
  ),
  health: defineMessage('conversation.qry.health.v1', z.object({}), Ack),
} as const;
