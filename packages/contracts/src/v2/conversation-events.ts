import { z } from 'zod';
import { Timestamp } from '../common';
import { Conversation } from './conversation';
import { Message } from './message';

/**
 * Events of `GET /v2/conversations/{id}/events` (an extension of the spec). The SSE event name is
 * `type`, the SSE id is `id` (the conversation's event version; resume with Last-Event-ID), and
 * `data` is this whole object as JSON.
 */
export const ConversationLiveEventType = z.enum([
  'message.created',
  'message.updated',
  'handoff.requested',
  'handoff.claimed',
  'handoff.released',
  'conversation.closed',
]);
export type ConversationLiveEventType = z.infer<typeof ConversationLiveEventType>;

export const ConversationLiveEvent = z.object({
  id: z.string(),
  type: ConversationLiveEventType,
  occurredAt: Timestamp,
  /** The conversation as it stood right after the event, without its messages. */
  conversation: Conversation,
  /** The message created or changed (`message.*` events), as it stood right after the event. */
  message: Message.nullable(),
});
export type ConversationLiveEvent = z.infer<typeof ConversationLiveEvent>;
