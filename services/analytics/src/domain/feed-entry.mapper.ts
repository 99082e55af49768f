import {
  type ConversationEvent,
  ConversationEventData,
  type ConversationEventType,
  FEED_TYPES,
  type FeedType,
  PERSONAL_EVENT_FIELDS,
  StoredEventEnvelope,
} from '@palaver/contracts';
import { isSealed } from '@palaver/platform';
import type { FeedbackSubmission } from './feedback-summary.reducer';

/**
 * Which conversation events the analytics feed keeps, and how they read there. Feed types are
 * `<category>.<what>`; a `type` filter matches either a whole type or a category
 * (`feedback` = `feedback.given` + `feedback.removed`).
 *
 * | domain event            | feed type              | data                               |
 * |-------------------------|------------------------|------------------------------------|
 * | ConversationStarted     | conversation.started   | visitorId, pageUrl                 |
 * | UserMessagePosted       | message.posted         | messageId (never the content)      |
 * | AssistantReplyCompleted | reply.completed        | messageId, finishReason, usage     |
 * | AssistantReplyFailed    | reply.failed           | messageId, error                   |
 * | MessageFeedbackGiven    | feedback.given         | messageId, feedback, previous      |
 * |   (feedback null)       | feedback.removed       | messageId, feedback: null, previous|
 * | HumanHandoffClaimed     | conversation.handoff   | humanAgent (with its id)           |
 * | HumanHandoffRequested   | handoff.requested      | source, messageId                  |
 * | HumanHandoffReleased    | handoff.released       | humanAgentId                       |
 * | ConversationClosed      | conversation.closed    | closeReason                        |
 * | ConversationRated       | conversation.rated     | score, comment, previousScore      |
 * | ContactCaptured         | contact.captured       | (none: the address is personal)    |
 *
 * Other events (reply started or restarted, human agent messages, internal notes) stay out of the feed. The list of
 * types is the feed contract's (FEED_TYPES in @palaver/contracts). The page URL and a rating's
 * comment are personal data, sealed in the event with the conversation's key (docs/privacy.md):
 * the feed reads them as null.
 *
 * ConversationErased makes no entry: it anonymizes the conversation's entries (see `ReadEvent`).
 */
export { FEED_TYPES, type FeedType };

export interface FeedEntry {
  eventId: string;
  projectId: string;
  conversationId: string;
  type: FeedType;
  category: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

export type ReadEvent =
  | { kind: 'entry'; entry: FeedEntry; feedback: FeedbackSubmission | null }
  /** The conversation was erased: its entries keep their counts, lose every id that leads back. */
  | { kind: 'erased'; projectId: string; conversationId: string }
  | { kind: 'ignored' }
  | { kind: 'invalid'; reason: string };

const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The conversation a stream belongs to: the uuid its id ends with (`<uuid>` or `conversation-<uuid>`). */
export const conversationIdOf = (streamId: string): string | null => UUID_AT_END.exec(streamId)?.[1]?.toLowerCase() ?? null;

/** The feed's view of one domain event, or null for events the feed leaves out. */
const toFeed = (event: ConversationEvent): { type: FeedType; data: Record<string, unknown> } | null => {
  switch (event.type) {
    case 'ConversationStarted':
      return { type: 'conversation.started', data: { visitorId: event.data.visitorId, pageUrl: event.data.pageUrl } };
    case 'UserMessagePosted':
      return { type: 'message.posted', data: { messageId: event.data.messageId } };
    case 'AssistantReplyCompleted': {
      const { messageId, finishReason, usage } = event.data;
      return { type: 'reply.completed', data: { messageId, finishReason, usage } };
    }
    case 'AssistantReplyFailed':
      return { type: 'reply.failed', data: { messageId: event.data.messageId, error: event.data.error } };
    case 'MessageFeedbackGiven': {
      const { messageId, feedback, previous } = event.data;
      return { type: feedback === null ? 'feedback.removed' : 'feedback.given', data: { messageId, feedback, previous } };
    }
    case 'HumanHandoffClaimed':
      return { type: 'conversation.handoff', data: { humanAgent: event.data.humanAgent } };
    case 'HumanHandoffRequested':
      return { type: 'handoff.requested', data: { source: event.data.source, messageId: event.data.messageId } };
    case 'HumanHandoffReleased':
      return { type: 'handoff.released', data: { humanAgentId: event.data.humanAgentId } };
    case 'ConversationClosed':
      return { type: 'conversation.closed', data: { closeReason: event.data.closeReason } };
    case 'ConversationRated': {
      const { score, comment, previousScore } = event.data;
      return { type: 'conversation.rated', data: { score, comment, previousScore } };
    }
    case 'ContactCaptured':
      // The address is personal, sealed in the event (docs/privacy.md): agents and the admin API read it.
      return { type: 'contact.captured', data: {} };
    case 'AssistantReplyStarted':
    case 'AssistantReplyRestarted':
    case 'HumanAgentMessagePosted':
    case 'ConversationErased':
    // Internal notes are the team's: never in the feed or webhooks.
    case 'AgentNoteAdded':
      return null;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const isEventType = (type: string): type is ConversationEventType => Object.hasOwn(ConversationEventData, type);

/**
 * The event's data with its sealed personal fields (docs/privacy.md) read as erased: the feed
 * never needs them, and a sealed value is a string where the schema may want an object.
 */
export const withoutSealed = (type: ConversationEventType, data: unknown): unknown => {
  const fields: Readonly<Record<string, unknown>> | undefined = PERSONAL_EVENT_FIELDS[type];
  if (!fields || typeof data !== 'object' || data === null) return data;
  const copy: Record<string, unknown> = { ...data };
  for (const [field, erased] of Object.entries(fields)) if (isSealed(copy[field])) copy[field] = erased;
  return copy;
};

/** Reads one StoredEvent from the stream into its feed entry (and its feedback submission, if it is one). */
export const readConversationEvent = (payload: unknown): ReadEvent => {
  const envelope = StoredEventEnvelope.safeParse(payload);
  if (!envelope.success) return { kind: 'invalid', reason: `envelope: ${envelope.error.issues[0]?.message ?? 'invalid'}` };
  const event = envelope.data;
  if (!isEventType(event.type)) return { kind: 'ignored' };
  const data = ConversationEventData[event.type].safeParse(withoutSealed(event.type, event.data));
  if (!data.success) return { kind: 'invalid', reason: `${event.type} data: ${data.error.issues[0]?.message ?? 'invalid'}` };
  const domainEvent = { type: event.type, data: data.data } as ConversationEvent;
  const conversationId = conversationIdOf(event.streamId);
  if (domainEvent.type === 'ConversationErased') {
    if (conversationId === null) return { kind: 'invalid', reason: `stream id ${event.streamId} names no conversation` };
    return { kind: 'erased', projectId: event.projectId, conversationId };
  }
  const feed = toFeed(domainEvent);
  if (feed === null) return { kind: 'ignored' };
  if (conversationId === null) return { kind: 'invalid', reason: `stream id ${event.streamId} names no conversation` };

  const entry: FeedEntry = {
    eventId: event.eventId,
    projectId: event.projectId,
    conversationId,
    type: feed.type,
    category: feed.type.split('.')[0] ?? feed.type,
    occurredAt: event.occurredAt,
    data: feed.data,
  };
  if (domainEvent.type !== 'MessageFeedbackGiven') return { kind: 'entry', entry, feedback: null };
  return {
    kind: 'entry',
    entry,
    feedback: {
      eventId: event.eventId,
      projectId: event.projectId,
      conversationId,
      messageId: domainEvent.data.messageId,
      feedback: domainEvent.data.feedback,
      previous: domainEvent.data.previous,
      version: event.version,
      occurredAt: event.occurredAt,
    },
  };
};

/** What an erased conversation's feed entries keep: counts and outcomes, nothing that names a person, message or text. */
const KEPT_AFTER_ERASURE = new Set(['finishReason', 'usage', 'feedback', 'previous', 'source']);

/** An entry's data once its conversation is erased. */
export const anonymizedData = (data: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data).filter(([key]) => KEPT_AFTER_ERASURE.has(key)));
