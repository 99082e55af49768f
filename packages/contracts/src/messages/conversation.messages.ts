import { z } from 'zod';
import { Actor } from '../accounts/audit';
import { AgentConversation, AgentEvent, HeldConversations } from '../agents/agent';
import { HumanAgent, HumanAgentRef, Uuid } from '../common';
import { HandoffSource, ReplyCompletion } from '../events/conversation.events';
import { Chat, ChatSummary, surfaceBPage } from '../surface-b/surface-b';
import { ReplyTo, Streamed } from '../tokens';
import { ChatMessage } from '../v2/completion';
import { Contact } from '../v2/contact';
import { CloseConversationResponse, Conversation, ListConversationsQuery, ListMessagesQuery } from '../v2/conversation';
import { ConversationLiveEvent } from '../v2/conversation-events';
import { pagedList, plainList } from '../v2/list';
import { Feedback, FeedbackResponse, Message, PageContext } from '../v2/message';
import { MAX_RATING_COMMENT, Rating, RatingScore } from '../v2/rating';
import { Ack, defineMessage } from './define';

/** Who asks: every visitor-scoped query carries the tenant and the visitor. */
const VisitorScope = z.object({ projectId: Uuid, visitorId: Uuid });

export const PostMessageOutcome = z.discriminatedUnion('kind', [
  /** The AI will answer: the reply's id is the one the gateway chose (its token channel). */
  z.object({ kind: z.literal('reply'), userMessage: Message, assistantMessageId: Uuid }),
  /** A human agent handles the conversation: the message waits for them. */
  z.object({ kind: z.literal('queued'), userMessage: Message }),
  /** The message asked for a person: the conversation is queued and `notice` (complete) tells the visitor. */
  z.object({ kind: z.literal('handoff'), userMessage: Message, notice: Message }),
]);
export type PostMessageOutcome = z.infer<typeof PostMessageOutcome>;

export const ConversationMessages = {
  create: defineMessage(
    'conversation.cmd.create.v1',
    /** With `conversationId` (surface B's chat ids): the visitor's own existing conversation is returned as is. */
    VisitorScope.extend({
      pageUrl: z.string().nullable(),
      conversationId: Uuid.optional(),
      userAgent: z.string().max(500).nullable().optional(),
    }),
    Conversation,
  ),
  list: defineMessage('conversation.qry.list.v1', VisitorScope.extend({ query: ListConversationsQuery }), pagedList(Conversation)),
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
      /** The project's phrases that ask for a person ([] = the defaults); null when handoff is off. */
      handoffTriggers: z.array(z.string().max(200)).max(50).nullable().default(null),
      /** Nobody can answer now (no agent online, or outside the hours): a visitor asking for a person is told this instead. */
      offlineNotice: z.string().max(1000).nullable().default(null),
      /** A custom history for the model instead of the stored one (surface B's previousMessages). */
      history: z.array(ChatMessage).max(100).optional(),
      /** The asking gateway's reply channel (else the reply's own). */
      replyTo: ReplyTo.optional(),
      streamed: Streamed,
    }),
    PostMessageOutcome,
  ),
  /** The visitor leaves a way to be reached (ContactCaptured): answers the contact as stored. */
  captureContact: defineMessage(
    'conversation.cmd.capture-contact.v1',
    VisitorScope.extend({ conversationId: Uuid, email: z.string().max(320), name: z.string().max(200).nullable() }),
    Contact,
  ),
  /** Generates an assistant message again under the same id; the old text stays in the event log. */
  regenerateReply: defineMessage(
    'conversation.cmd.regenerate-reply.v1',
    VisitorScope.extend({
      conversationId: Uuid,
      messageId: Uuid,
      assistantId: Uuid.nullable(),
      history: z.array(ChatMessage).max(100).optional(),
      replyTo: ReplyTo.optional(),
      streamed: Streamed,
    }),
    z.object({ assistantMessageId: Uuid }),
  ),
  /** The visitor's live events after `after` (a stream version), oldest first. */
  events: defineMessage(
    'conversation.qry.events.v1',
    VisitorScope.extend({ conversationId: Uuid, after: z.number().int().min(0) }),
    /** `cursor`: the version read up to (past events the visitor is not shown). */
    z.object({ data: z.array(ConversationLiveEvent), cursor: z.number().int() }),
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
  /** The visitor's CSAT for the conversation; rating again replaces the score. */
  rate: defineMessage(
    'conversation.cmd.rate.v1',
    VisitorScope.extend({ conversationId: Uuid, score: RatingScore, comment: z.string().max(MAX_RATING_COMMENT).nullable() }),
    Rating,
  ),
  /** From inference: the reply is done. Idempotent for the same message. */
  completeReply: defineMessage(
    'conversation.cmd.complete-reply.v1',
    z.object({ projectId: Uuid, conversationId: Uuid, messageId: Uuid, ...ReplyCompletion.shape }),
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
  /** Admin call: an agent named only by name and image takes the conversation (no agent identity). */
  handoff: defineMessage(
    'conversation.cmd.handoff.v1',
    z.object({ projectId: Uuid, conversationId: Uuid, humanAgent: HumanAgent, actor: Actor.optional() }),
    Conversation,
  ),
  /** Queues the conversation for an agent (idempotent while it is human-handled). */
  requestHandoff: defineMessage(
    'conversation.cmd.request-handoff.v1',
    z.object({ projectId: Uuid, conversationId: Uuid, source: HandoffSource, actor: Actor.optional() }),
    AgentConversation,
  ),
  /** An agent takes the conversation: `queue` only if it waits, `take` unless another agent holds it. */
  claim: defineMessage(
    'conversation.cmd.claim.v1',
    z.object({
      projectId: Uuid,
      conversationId: Uuid,
      humanAgent: HumanAgentRef,
      mode: z.enum(['queue', 'take']),
      actor: Actor.optional(),
    }),
    AgentConversation,
  ),
  /** Atomically assigns the oldest waiting conversation; null when the queue is empty. */
  claimNext: defineMessage(
    'conversation.cmd.claim-next.v1',
    z.object({ projectId: Uuid, humanAgent: HumanAgentRef, actor: Actor.optional() }),
    z.object({ conversation: AgentConversation.nullable() }),
  ),
  /** The agent who holds the conversation closes it (a null agent id: an admin call, whoever holds it). */
  agentClose: defineMessage(
    'conversation.cmd.agent-close.v1',
    z.object({
      projectId: Uuid,
      conversationId: Uuid,
      humanAgentId: Uuid.nullable(),
      closeReason: z.string().max(1000).nullable(),
      actor: Actor.optional(),
    }),
    AgentConversation,
  ),
  /** Hands the conversation back to the assistant; humanAgentId null (admin) releases whoever holds it. */
  release: defineMessage(
    'conversation.cmd.release.v1',
    z.object({ projectId: Uuid, conversationId: Uuid, humanAgentId: Uuid.nullable(), actor: Actor.optional() }),
    AgentConversation,
  ),
  /**
   * Hands back to the assistant every open conversation the agent holds (its token was revoked);
   * answers the conversations released. One taken by someone else meanwhile is left alone.
   */
  releaseHeld: defineMessage(
    'conversation.cmd.release-held.v1',
    z.object({ projectId: Uuid, humanAgentId: Uuid }),
    z.object({ released: z.array(Uuid) }),
  ),
  /**
   * Puts back in the waiting queue every open conversation the person holds (they left the
   * project or were deleted): each is released, then waits for another agent. Audited under
   * `actor`, who removed them. One taken by someone else meanwhile is left alone.
   */
  requeueHeld: defineMessage(
    'conversation.cmd.requeue-held.v1',
    z.object({ projectId: Uuid, humanAgentId: Uuid, actor: Actor }),
    z.object({ requeued: z.array(Uuid) }),
  ),
  /** humanAgentId null (admin): posts as whoever holds it. */
  postAgentMessage: defineMessage(
    'conversation.cmd.post-agent-message.v1',
    z.object({
      projectId: Uuid,
      conversationId: Uuid,
      content: z.string().min(1).max(10_000),
      humanAgentId: Uuid.nullable().default(null),
    }),
    Message,
  ),
  queue: defineMessage(
    'conversation.qry.queue.v1',
    z.object({ projectId: Uuid, limit: z.number().int().min(1).max(100) }),
    z.object({ data: z.array(AgentConversation) }),
  ),
  agentConversation: defineMessage(
    'conversation.qry.agent-conversation.v1',
    z.object({ projectId: Uuid, conversationId: Uuid }),
    AgentConversation,
  ),
  /** The open conversations the agent holds, with the feed's position read before them. */
  heldConversations: defineMessage(
    'conversation.qry.held-conversations.v1',
    z.object({ projectId: Uuid, humanAgentId: Uuid }),
    HeldConversations,
  ),
  /** The project's agent feed after `after` (a sequence), oldest first. */
  agentEvents: defineMessage(
    'conversation.qry.agent-events.v1',
    z.object({ projectId: Uuid, after: z.number().int().min(0), limit: z.number().int().min(1).max(500) }),
    z.object({ data: z.array(AgentEvent) }),
  ),
  /** Surface B: a customer's chats, newest interaction first. */
  chats: defineMessage(
    'conversation.qry.chats.v1',
    VisitorScope.extend({
      filter: z.enum(['all', 'open', 'closed']),
      page: z.number().int().min(1),
      pageSize: z.number().int().min(1).max(100),
    }),
    surfaceBPage(ChatSummary),
  ),
  /** Surface B: one chat of the customer; any other chat is CONVERSATION_NOT_FOUND. */
  chat: defineMessage('conversation.qry.chat.v1', VisitorScope.extend({ chatId: Uuid }), Chat),
  health: defineMessage('conversation.qry.health.v1', z.object({}), Ack),
} as const;
