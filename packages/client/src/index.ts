export type { Conversation, ConversationLiveEvent, Feedback, Message, PageContext, Project, Visitor } from '@palaver/contracts';
export {
  type AgentTypingEvent,
  type ConversationStreamEvent,
  type JsonReply,
  type List,
  PalaverClient,
  type PalaverClientOptions,
  type SendMessageInput,
  type SendOptions,
  type StreamedReply,
} from './client';
export { storedDeviceId } from './device-id';
export { PalaverApiError, PalaverNetworkError } from './errors';
export { newIdempotencyKey } from './safe-retry';
export { type PalaverTransport, type PalaverTransportOptions, palaverTransport } from './transport';
export { TYPING_MIN_INTERVAL_MS, TYPING_TTL_MS } from './typing';
export { type PalaverProviderMetadata, type PalaverSource, type PalaverUiChunk, readUiMessageStream, storedMessageId } from './ui-stream';
