import type { ConversationLiveEvent, ConversationLiveEventType } from '@palaver/contracts';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import { applyToConversation } from '../projections/conversation.projection';
import { applyToMessage, messageIdOf } from '../projections/message.projection';
import type { ConversationDoc, MessageDoc } from '../repositories/read-model';
import { toConversation, toMessage } from './conversation.presenter';

/** What a visitor is told of an event; null for events that change nothing they see (a reply starting, an internal note). */
const liveTypeOf = (event: StoredConversationEvent): ConversationLiveEventType | null => {
  switch (event.type) {
    case 'UserMessagePosted':
    case 'HumanAgentMessagePosted':
      return 'message.created';
    case 'AssistantReplyCompleted':
    case 'AssistantReplyFailed':
    case 'MessageFeedbackGiven':
      return 'message.updated';
    case 'HumanHandoffRequested':
      return 'handoff.requested';
    case 'HumanHandoffClaimed':
      return 'handoff.claimed';
    case 'HumanHandoffReleased':
      return 'handoff.released';
    case 'ConversationClosed':
      return 'conversation.closed';
    default:
      return null;
  }
};

/**
 * The visitor's live events of a conversation stream after version `after`, each with the
 * conversation and message as they stood right after it. A reply shows up once, complete (or
 * failed), as `message.updated`: its tokens travel on the reply's own stream.
 */
export const liveEventsOf = (events: readonly StoredConversationEvent[], after: number): ConversationLiveEvent[] => {
  let conversation: ConversationDoc | null = null;
  const messages = new Map<string, MessageDoc>();
  const live: ConversationLiveEvent[] = [];
  for (const event of events) {
    conversation = applyToConversation(conversation, event);
    if (!conversation) continue;
    const messageId = messageIdOf(event);
    let message: MessageDoc | null = null;
    if (messageId !== null) {
      message = applyToMessage(messages.get(messageId) ?? null, event, { visitorId: conversation.visitorId });
      if (message) messages.set(messageId, message);
    }
    const type = liveTypeOf(event);
    if (event.version <= after || type === null) continue;
    live.push({
      id: String(event.version),
      type,
      occurredAt: event.occurredAt,
      conversation: toConversation(conversation),
      message: message ? toMessage(message) : null,
    });
  }
  return live;
};
