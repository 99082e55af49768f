import { type ConversationEvent, ConversationEventData, type ConversationEventType, StoredEventEnvelope } from '@palaver/contracts';
import { conversationIdOf, withoutSealed } from './feed-entry.mapper';

export interface ReadDomainEvent {
  projectId: string;
  conversationId: string;
  version: number;
  occurredAt: string;
  event: ConversationEvent;
}

const isEventType = (type: string): type is ConversationEventType => Object.hasOwn(ConversationEventData, type);

/** A StoredEvent from the stream as a typed conversation event, or null when unknown or malformed (the feed reports those). */
export const readDomainEvent = (payload: unknown): ReadDomainEvent | null => {
  const envelope = StoredEventEnvelope.safeParse(payload);
  if (!envelope.success || !isEventType(envelope.data.type)) return null;
  const { type, streamId, projectId, version, occurredAt } = envelope.data;
  // Insights reads no personal field (docs/privacy.md): sealed ones are read as erased.
  const data = ConversationEventData[type].safeParse(withoutSealed(type, envelope.data.data));
  const conversationId = conversationIdOf(streamId);
  if (!data.success || conversationId === null) return null;
  return { projectId, conversationId, version, occurredAt, event: { type, data: data.data } as ConversationEvent };
};
