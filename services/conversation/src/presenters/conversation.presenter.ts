import type { Conversation, Message } from '@palaver/contracts';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import { applyToConversation } from '../projections/conversation.projection';
import { applyToMessage, messageIdOf } from '../projections/message.projection';
import type { ConversationDoc, MessageDoc } from '../repositories/read-model';

/** A message resource; messages shown inside a conversation also carry its title. */
export const toMessage = (doc: MessageDoc, embeddedIn?: { title: string | null }): Message => ({
  object: 'message',
  id: doc._id,
  createdAt: doc.createdAt,
  chatId: doc.conversationId,
  role: doc.role,
  parts: doc.parts.map((part) => ({ type: part.type, text: part.text })),
  status: doc.status,
  error: doc.error,
  feedback: doc.feedback,
  feedbackAt: doc.feedbackAt,
  metadata: { ...doc.metadata },
  ...(embeddedIn ? { title: embeddedIn.title } : {}),
});

/**
 * A conversation resource. `isHumanHandled` is always given (false until a handoff);
 * `humanAgent` only once an agent is assigned.
 */
export const toConversation = (doc: ConversationDoc, extra: { messages?: Message[]; lastMessage?: Message | null } = {}): Conversation => ({
  object: 'conversation',
  id: doc._id,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
  status: doc.status,
  closedAt: doc.closedAt,
  closeReason: doc.closeReason,
  lastInteractionAt: doc.lastInteractionAt,
  title: doc.title,
  isHumanHandled: doc.isHumanHandled,
  ...(doc.humanAgent ? { humanAgent: { name: doc.humanAgent.name, image: doc.humanAgent.image } } : {}),
  ...(doc.contact ? { contact: doc.contact } : {}),
  ...extra,
});

/** The read-model documents a stream's events make, computed without the store. */
export const documentsOf = (
  events: readonly StoredConversationEvent[],
): { conversation: ConversationDoc | null; messages: MessageDoc[] } => {
  let conversation: ConversationDoc | null = null;
  const messages = new Map<string, MessageDoc>();
  for (const event of events) {
    conversation = applyToConversation(conversation, event);
    const messageId = messageIdOf(event);
    if (conversation && messageId !== null) {
      const next = applyToMessage(messages.get(messageId) ?? null, event, { visitorId: conversation.visitorId });
      if (next) messages.set(messageId, next);
    }
  }
  return { conversation, messages: [...messages.values()].sort((a, b) => a.seq - b.seq) };
};

/** A conversation with its messages, as `get` shows it. */
export const toFullConversation = (conversation: ConversationDoc, messages: readonly MessageDoc[]): Conversation =>
  toConversation(conversation, { messages: messages.map((m) => toMessage(m, { title: conversation.title })) });
