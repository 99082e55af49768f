import { z } from 'zod';
import { Timestamp, Uuid } from '../common';

/**
 * The analytics feed's types, `<category>.<what>`: the one list the feed, webhook subscriptions
 * and the AsyncAPI document read. A type added here is at once subscribable and documented.
 */
export const FEED_TYPES = [
  'conversation.started',
  'message.posted',
  'reply.completed',
  'reply.failed',
  'feedback.given',
  'feedback.removed',
  'conversation.handoff',
  'conversation.closed',
  'handoff.requested',
  'handoff.released',
  'conversation.rated',
  'contact.captured',
] as const;
export const FeedType = z.enum(FEED_TYPES);
export type FeedType = z.infer<typeof FeedType>;

/** What each feed type says of its event (its `data`), for the published contracts. */
export const FEED_TYPE_DESCRIPTIONS: Record<FeedType, string> = {
  'conversation.started': 'A visitor started a conversation (data: visitorId, pageUrl).',
  'message.posted': 'A visitor posted a message (data: messageId; never the content).',
  'reply.completed': "The assistant's reply finished (data: messageId, finishReason, usage).",
  'reply.failed': "The assistant's reply failed (data: messageId, error).",
  'feedback.given': 'A visitor liked or disliked a reply (data: messageId, feedback, previous).',
  'feedback.removed': 'A visitor took their feedback back (data: messageId, feedback: null, previous).',
  'conversation.handoff': 'A human agent took the conversation over (data: humanAgent).',
  'conversation.closed': 'The conversation was closed (data: closeReason).',
  'handoff.requested': 'A person was asked for, by the visitor or the assistant (data: source, messageId).',
  'handoff.released': 'The human agent handed the conversation back (data: humanAgentId).',
  'conversation.rated': 'The visitor rated the conversation, 1 to 5 (data: score, comment, previousScore).',
  'contact.captured':
    'The visitor left an email to be reached when nobody could answer (no data: the address is personal, sealed in the event; read it from the conversation).',
};

/** One feed entry: the event it stands for, and the fields the feed keeps of it. */
export const FeedEntry = z.object({
  eventId: Uuid,
  projectId: Uuid,
  conversationId: Uuid,
  type: FeedType,
  /** The part of the type before the dot (`feedback` for `feedback.given`). */
  category: z.string(),
  occurredAt: Timestamp,
  data: z.record(z.string(), z.unknown()),
});
export type FeedEntry = z.infer<typeof FeedEntry>;
