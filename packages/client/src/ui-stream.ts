import { EventSourceParserStream } from 'eventsource-parser/stream';

/**
 * The chunks of the AI SDK's UI message stream that Palaver sends (spec: Events), typed here so
 * that browser code reading the stream does not need the `ai` package.
 */
export type PalaverUiChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'text-start'; id: string; providerMetadata?: PalaverProviderMetadata }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'error'; errorText: string }
  | { type: 'finish-step' }
  | { type: 'finish'; finishReason?: string; messageMetadata?: unknown }
  | { type: string; [key: string]: unknown };

/** A source the answer was grounded on (`providerMetadata.palaver.sources`, when sent). */
export interface PalaverSource {
  title?: string;
  url?: string;
  [key: string]: unknown;
}

export interface PalaverProviderMetadata {
  palaver?: { messageId?: string; sources?: PalaverSource[]; [key: string]: unknown };
  [provider: string]: unknown;
}

/** The events of an SSE body. */
const sseEvents = (body: ReadableStream<Uint8Array>) =>
  body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).pipeThrough(new EventSourceParserStream());

/** Reads an SSE body of JSON events, ending at `data: [DONE]`. */
export const readUiMessageStream = (body: ReadableStream<Uint8Array>): ReadableStream<PalaverUiChunk> =>
  sseEvents(body).pipeThrough(
    new TransformStream({
      transform(event, controller) {
        if (event.data === '[DONE]') return controller.terminate();
        controller.enqueue(JSON.parse(event.data) as PalaverUiChunk);
      },
    }),
  );

/** Reads an SSE body whose events carry JSON in `data` (comments and keep-alives skipped). */
export const readJsonEventStream = <T>(body: ReadableStream<Uint8Array>): ReadableStream<T> =>
  sseEvents(body).pipeThrough(
    new TransformStream({
      transform(event, controller) {
        if (event.data) controller.enqueue(JSON.parse(event.data) as T);
      },
    }),
  );

/** The stored assistant message id carried by a `text-start` chunk. */
export const storedMessageId = (chunk: PalaverUiChunk): string | undefined =>
  chunk.type === 'text-start' ? (chunk.providerMetadata as PalaverProviderMetadata | undefined)?.palaver?.messageId : undefined;
