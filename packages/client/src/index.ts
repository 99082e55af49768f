export { PalaverClient, type PalaverClientOptions, type List, type SendMessageInput, type StreamedReply, type JsonReply } from './client';
export { PalaverApiError, PalaverNetworkError } from './errors';
export { storedDeviceId } from './device-id';
export { readUiMessageStream, storedMessageId, type PalaverUiChunk, type PalaverProviderMetadata, type PalaverSource } from './ui-stream';
export { palaverTransport, type PalaverTransport, type PalaverTransportOptions } from './transport';
