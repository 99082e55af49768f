import { z } from 'zod';
import { HumanAgent, HumanAgentRef, Timestamp, Uuid } from '../common';
import { FinishReason, Usage } from '../v2/completion';
import { Feedback, PageContext, ReplySource } from '../v2/message';

/** Who asked for a person: the visitor (trigger phrase or model), an agent, or an admin call. */
export const HandoffSource = z.enum(['visitor', 'agent', 'admin']);
export type HandoffSource = z.infer<typeof HandoffSource>;

/** How a reply ended, as inference (or a stop) reports it and its event records it. */
export const ReplyCompletion = z.object({
  text: z.string(),
  finishReason: FinishReason,
  usage: Usage,
  /** The documents the reply drew on. */
  sources: z.array(ReplySource).optional(),
  /** Whether any knowledge (Q&A entry or document) was found for the question; absent on a stopped reply and on the handoff notice. */
  grounded: z.boolean().optional(),
  /** Whether the reply says it cannot answer (decided by inference on the clear text); absent on a stopped reply. */
  declined: z.boolean().optional(),
});

/** Data of each conversation event. Every event also has the envelope fields of `StoredEvent`. */
export const ConversationEventData = {
  ConversationStarted: z.object({
    projectId: Uuid,
    visitorId: Uuid,
    pageUrl: z.string().nullable(),
    /** The User-Agent of the request that created it (v2 only; absent from earlier events). */
    userAgent: z.string().nullable().optional(),
  }),
  UserMessagePosted: z.object({
    messageId: Uuid,
    content: z.string(),
    pageContext: PageContext.nullable(),
  }),
  AssistantReplyStarted: z.object({ messageId: Uuid, assistantId: Uuid.nullable() }),
  AssistantReplyCompleted: z.object({ messageId: Uuid, ...ReplyCompletion.shape }),
  AssistantReplyFailed: z.object({ messageId: Uuid, error: z.string(), partialText: z.string() }),
  MessageFeedbackGiven: z.object({
    messageId: Uuid,
    feedback: Feedback.nullable(),
    previous: Feedback.nullable(),
  }),
  ConversationClosed: z.object({ closeReason: z.string().nullable() }),
  /** The conversation waits in the project's queue for an agent; the AI stops answering. */
  HumanHandoffRequested: z.object({ source: HandoffSource, messageId: Uuid.nullable() }),
  /** An agent holds the conversation (from the queue, or taken directly). */
  HumanHandoffClaimed: z.object({ humanAgent: HumanAgentRef }),
  /** Handed back to the assistant. */
  HumanHandoffReleased: z.object({ humanAgentId: Uuid.nullable() }),
  HumanAgentMessagePosted: z.object({
    messageId: Uuid,
    content: z.string(),
    humanAgent: HumanAgent,
    humanAgentId: Uuid.nullable().optional(),
  }),
  /** The visitor's satisfaction with the conversation (CSAT); a later rating replaces it. */
  ConversationRated: z.object({
    score: z.number().int().min(1).max(5),
    comment: z.string().nullable(),
    previousScore: z.number().int().min(1).max(5).nullable(),
  }),
  /** A reply generated again: the message streams anew; its previous text stays in the earlier events. */
  AssistantReplyRestarted: z.object({ messageId: Uuid, assistantId: Uuid.nullable() }),
  /**
   * The conversation was erased (the visitor asked, or the retention period ran out): its data key
   * is deleted, so the personal fields of every event before read as erased; it is gone from every
   * read and refuses every command.
   */
  ConversationErased: z.object({ reason: z.enum(['request', 'retention']) }),
  /** The visitor left a way to be reached (when nobody could answer); the latest one wins. */
  ContactCaptured: z.object({ email: z.string(), name: z.string().nullable() }),
  /** An agent wrote an internal note: for the team only, never shown to the visitor or sent to analytics. */
  AgentNoteAdded: z.object({ noteId: Uuid, content: z.string(), agent: HumanAgentRef }),
} as const;

export type ConversationEventType = keyof typeof ConversationEventData;

/**
 * The personal fields of each conversation event, sealed with the conversation's data key when
 * appended (crypto-shredding, docs/privacy.md), each with the value it reads as once the key is
 * deleted. Events on the durable stream carry them sealed: no consumer needs them.
 */
export const PERSONAL_EVENT_FIELDS: {
  readonly [T in ConversationEventType]?: { readonly [F in keyof z.infer<(typeof ConversationEventData)[T]>]?: unknown };
} = {
  ConversationStarted: { pageUrl: null, userAgent: null },
  UserMessagePosted: { content: '', pageContext: null },
  AssistantReplyCompleted: { text: '' },
  AssistantReplyFailed: { partialText: '' },
  HumanAgentMessagePosted: { content: '' },
  ConversationRated: { comment: null },
  ContactCaptured: { email: '', name: null },
  AgentNoteAdded: { content: '' },
};
export const CONVERSATION_EVENT_TYPES = Object.keys(ConversationEventData) as ConversationEventType[];

export type ConversationEventOf<T extends ConversationEventType> = {
  type: T;
  data: z.infer<(typeof ConversationEventData)[T]>;
};
/** An event as `decide` produces it, before the store gives it an id, version and time. */
export type ConversationEvent = { [T in ConversationEventType]: ConversationEventOf<T> }[ConversationEventType];

/** The envelope every stored event carries. */
export const StoredEventEnvelope = z.object({
  eventId: Uuid,
  streamId: z.string(),
  version: z.number().int().min(1),
  type: z.string(),
  projectId: Uuid,
  occurredAt: Timestamp,
  data: z.unknown(),
});
export type StoredEvent<E extends { type: string; data: unknown } = { type: string; data: unknown }> = E & {
  eventId: string;
  streamId: string;
  version: number;
  projectId: string;
  occurredAt: string;
};

/** Subject on the durable event stream: `conversation.evt.<kebab-type>.v1`. */
export const eventSubject = (type: string): string => `conversation.evt.${type.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}.v1`;

export const ALL_CONVERSATION_EVENTS = 'conversation.evt.>';
