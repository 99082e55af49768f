import { CONVERSATION_EVENT_TYPES, type ConversationEvent, type StoredEvent } from '@palaver/contracts';

const PREFIX = 'conversation-';

export const streamIdOf = (conversationId: string): string => `${PREFIX}${conversationId}`;

export const conversationIdOf = (streamId: string): string => (streamId.startsWith(PREFIX) ? streamId.slice(PREFIX.length) : streamId);

export type StoredConversationEvent = StoredEvent<ConversationEvent>;

const TYPES = new Set<string>(CONVERSATION_EVENT_TYPES);

/** Events of a type this code knows; the store hands them back untyped. */
export const isConversationEvent = (event: StoredEvent): event is StoredConversationEvent =>
  event.streamId.startsWith(PREFIX) && TYPES.has(event.type);
