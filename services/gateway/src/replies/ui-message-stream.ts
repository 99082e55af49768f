import type { ServerResponse } from 'node:http';
import type { ReplySource, TokenChunk } from '@palaver/contracts';
import { logger } from '@palaver/platform';
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import { type OpenStream, openResponse } from '../http/open-stream';

/**
 * Turns a reply's fragments into the AI SDK UI message stream, in the spec's order:
 * start, start-step, text-start, text-delta..., text-end, finish-step, finish, then [DONE]
 * (written by `pipeUiMessageStream`). A failed reply ends with an `error` chunk instead of the text-end.
 * `textId` names the text part; `providerMetadata.palaver.messageId` tells the client which
 * stored message this is (for feedback), `providerMetadata.palaver.sources` which documents the
 * reply draws on (title and url; the AI SDK copies both onto the text part).
 */
export async function* toUiMessageChunks(
  fragments: AsyncIterable<TokenChunk>,
  ids: { textId: string; messageId: string | null },
): AsyncGenerator<UIMessageChunk> {
  yield { type: 'start' };
  yield { type: 'start-step' };
  let textStarted = false;
  const startText = (sources: ReplySource[] | undefined): UIMessageChunk => {
    textStarted = true;
    return {
      type: 'text-start',
      id: ids.textId,
      providerMetadata: {
        palaver: { ...(ids.messageId ? { messageId: ids.messageId } : {}), ...(sources ? { sources } : {}) },
      },
    };
  };
  for await (const fragment of fragments) {
    if (fragment.type === 'delta') {
      if (!textStarted) yield startText(fragment.sources);
      yield { type: 'text-delta', id: ids.textId, delta: fragment.delta };
      continue;
    }
    if (fragment.type === 'error') {
      if (textStarted) yield { type: 'text-end', id: ids.textId };
      yield { type: 'error', errorText: fragment.error };
      yield { type: 'finish-step' };
      yield { type: 'finish' };
      return;
    }
    if (!textStarted) yield startText(fragment.sources);
    yield { type: 'text-end', id: ids.textId };
    yield { type: 'finish-step' };
    yield { type: 'finish' };
    return;
  }
}

/**
 * Writes the chunks to `response` as the AI SDK's UI message stream over SSE: its headers (ours
 * win), one `data: <json>` event per chunk, then `data: [DONE]`, minding backpressure; a client
 * that goes away stops the chunks. This is what the SDK's `pipeUIMessageStreamToResponse` writes,
 * without its chain of four web streams, whose state was most of an open reply's memory.
 */
export const pipeUiMessageStream = (
  response: ServerResponse,
  chunks: AsyncIterable<UIMessageChunk>,
  headers: Record<string, string>,
): void => {
  void writeUiMessageStream(openResponse(response, { ...UI_MESSAGE_STREAM_HEADERS, ...headers }), chunks);
};

/** The UI message stream's headers, the route's own winning. */
export const uiMessageStreamHeaders = (routeHeaders: Record<string, string>): Record<string, string> => ({
  ...UI_MESSAGE_STREAM_HEADERS,
  ...routeHeaders,
});

/** Writes the chunks on an open stream as `pipeUiMessageStream` does; resolves when the stream has ended. */
export const writeUiMessageStream = async (stream: OpenStream, chunks: AsyncIterable<UIMessageChunk>): Promise<void> => {
  const iterator = chunks[Symbol.asyncIterator]();
  let finished = false;
  const stopWatching = stream.onGone(() => void iterator.return?.(undefined));
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        break;
      }
      if (stream.isGone || stream.raw.destroyed) break;
      await stream.write(`data: ${JSON.stringify(next.value)}\n\n`);
    }
    if (finished) stream.end('data: [DONE]\n\n');
  } catch (err) {
    // The reply's own failures arrive as an `error` chunk; this is a fault in the pipeline itself.
    logger.error({ err }, 'reply stream failed');
    stream.raw.destroy();
  } finally {
    stopWatching();
    // Left early (the client went away): the reply's source is closed too.
    if (!finished) void iterator.return?.(undefined);
  }
};
