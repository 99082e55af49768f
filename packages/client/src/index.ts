export type { Conversation, Feedback, Message, PageContext, Project, Visitor } from '@palaver/contracts';
export {
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
export { type PalaverProviderMetadata, type PalaverSource, type PalaverUiChunk, readUiMessageStream, storedMessageId } from './ui-stream';
