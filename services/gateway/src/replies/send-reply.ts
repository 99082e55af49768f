import type { FastifyReply } from 'fastify';
import { exemptFromIdleTimeout } from '../http/timeouts';
import { collectCompletion } from './completion-result';
import type { ReplyListener } from './reply-listener';
import { pipeUiMessageStream, toUiMessageChunks } from './ui-message-stream';

export interface ReplyOptions {
  stream: boolean;
  /** Status of the JSON (non-streaming) answer. */
  jsonStatus: number;
  textId: string;
  messageId: string | null;
}

/** Answers with the reply: as the UI message stream (SSE), or as one Chat completion result. */
export const sendReply = async (reply: FastifyReply, listener: ReplyListener, options: ReplyOptions): Promise<void> => {
  if (options.stream) {
    const headers = Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)]));
    reply.hijack();
    exemptFromIdleTimeout(reply);
    pipeUiMessageStream(reply.raw, toUiMessageChunks(listener.chunks(), options), headers);
    return;
  }
  const result = await collectCompletion(listener.chunks());
  await reply.status(options.jsonStatus).send(result);
};
