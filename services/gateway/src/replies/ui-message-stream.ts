import type { ServerResponse } from 'node:http';
import type { ReplySource, TokenChunk } from '@palaver/contracts';
import { pipeUIMessageStreamToResponse, type UIMessageChunk } from 'ai';

/**
 * Turns a reply's fragments into the AI SDK UI message stream, in the spec's order:
 * start, start-step, text-start, text-delta..., text-end, finish-step, finish, then [DONE]
 * (written by the SDK). A failed reply ends with an `error` chunk instead of the text-end.
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

/** Writes the chunks as SSE through the AI SDK's own encoder (it adds the stream headers and [DONE]). */
export const pipeUiMessageStream = (
  response: ServerResponse,
  chunks: AsyncIterable<UIMessageChunk>,
  headers: Record<string, string>,
): void => {
  const iterator = chunks[Symbol.asyncIterator]();
  const stream = new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  pipeUIMessageStreamToResponse({ response, stream, status: 200, headers });
};
