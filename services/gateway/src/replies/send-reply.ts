import type { FastifyReply } from 'fastify';
import { openStream } from '../http/open-stream';
import { collectCompletion } from './completion-result';
import type { ReplyListener } from './reply-listener';
import { toUiMessageChunks, uiMessageStreamHeaders, writeUiMessageStream } from './ui-message-stream';

export interface ReplyOptions {
  stream: boolean;
  /** Status of the JSON (non-streaming) answer. */
  jsonStatus: number;
  textId: string;
  messageId: string | null;
}

/** Where a reply's fragments come from: a live listener, or a reply known in advance (`fixedReply`). */
export type ReplySource = Pick<ReplyListener, 'chunks'>;

/** A reply whose whole text is already known (the handoff notice), as fragments. */
export const fixedReply = (text: string): ReplySource => ({
  async *chunks() {
    yield { type: 'delta', delta: text };
    yield {
      type: 'finish',
      text,
      finishReason: 'stop',
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 },
    };
  },
});

/** Answers with the reply: as the UI message stream (SSE), or as one Chat completion result. */
export const sendReply = async (reply: FastifyReply, listener: ReplySource, options: ReplyOptions): Promise<void> => {
  if (options.stream) {
    const stream = openStream(reply, { headers: uiMessageStreamHeaders });
    void writeUiMessageStream(stream, toUiMessageChunks(listener.chunks(), options));
    return;
  }
  const result = await collectCompletion(listener.chunks());
  await reply.status(options.jsonStatus).send(result);
};
