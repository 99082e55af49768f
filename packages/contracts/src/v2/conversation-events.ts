import { z } from 'zod';
import { Timestamp } from '../common';
import { Conversation } from './conversation';
import { Message } from './message';

/**
 * Events of `GET /v2/conversations/{id}/events` (an extension of the spec). The SSE event name is
 * `type`, the SSE id is `id` (the conversation's event version; resume with Last-Event-ID), and
 * `data` is this whole object as JSON.
 */
/** What happens to a conversation's owner and its open state; the visitor's and the agents' feeds both carry them. */
export const HANDOFF_EVENT_TYPES = ['handoff.requested', 'handoff.claimed', 'handoff.released', 'conversation.closed'] as const;

export const ConversationLiveEventType = z.enum(['message.created', 'message.updated', ...HANDOFF_EVENT_TYPES]);
export type ConversationLiveEventType = z.infer<typeof ConversationLiveEventType>;

/**
 * What every stored event of a live feed begins with: its SSE id (resume with Last-Event-ID), its
 * SSE event name and when it happened.
 */
export const liveEventHead = <T extends z.ZodType>(type: T) => ({ id: z.string(), type, occurredAt: Timestamp });

export const ConversationLiveEvent = z.object({
  ...liveEventHead(ConversationLiveEventType),
  /** The conversation as it stood right after the event, without its messages. */
  conversation: Conversation,
  /** The message created or changed (`message.*` events), as it stood right after the event. */
  message: Message.nullable(),
});
export type ConversationLiveEvent = z.infer<typeof ConversationLiveEvent>;
