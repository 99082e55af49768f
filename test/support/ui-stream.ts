import { parseJsonEventStream, readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from 'ai';

export interface ParsedUiStream {
  chunks: UIMessageChunk[];
  /** The final message assembled by the AI SDK's own reader. */
  message: UIMessage | undefined;
  text: string;
  rawLines: string[];
}

/** Parses an SSE body with the AI SDK's own parser and assembles the message with its reader. */
export const parseUiMessageStream = async (body: string): Promise<ParsedUiStream> => {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
  });
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: source, schema: uiMessageChunkSchema });
  const chunkStream = parsed.pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) throw result.error;
        chunks.push(result.value as UIMessageChunk);
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream: chunkStream })) message = snapshot;
  const text = (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { chunks, message, text, rawLines: body.split('\n').filter((line) => line.startsWith('data: ')) };
};

/** The UI message stream's chunks as they arrive (the AI SDK's own SSE parser). */
export async function* uiChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<UIMessageChunk> {
  const reader = parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    if (!value.success) throw value.error;
    yield value.value as UIMessageChunk;
  }
}
