import { AppError, ConversationMessages, type Message, type TokenChunk } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { FastifyReply } from 'fastify';
import { sendPlainTextReply } from '../replies/plain-text-reply';
import { type ReplySource, sendReply } from '../replies/send-reply';
import type { NotedReply } from './idempotency.store';

const PAGE = 1000;

/**
 * Answers a repeat of a request whose reply was streamed: the stored message, once finished, in
 * the first answer's format (a UI message stream of its whole text, or plain text). While the
 * reply is still being generated the repeat is a 409 IDEMPOTENCY_KEY_IN_USE, as for any request
 * still running.
 */
export const replayReply = async (services: ServiceClient, reply: FastifyReply, noted: NotedReply): Promise<void> => {
  const message = await findMessage(services, noted);
  if (!message || message.status === 'streaming') throw replyInProgress();
  const text = message.parts.map((part) => part.text).join('');
  const source: ReplySource = { chunks: () => finished(message, text) };
  if (noted.format === 'plain-text') return sendPlainTextReply(reply, source, true);
  return sendReply(reply, source, { stream: true, jsonStatus: 200, textId: message.id, messageId: message.id });
};

export const replyInProgress = (): AppError =>
  new AppError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being handled: retry once it has finished', {
    retryable: true,
  });

const findMessage = async (services: ServiceClient, noted: NotedReply): Promise<Message | undefined> => {
  for (let offset = 0; ; offset += PAGE) {
    const page = await services.send(ConversationMessages.listMessages, {
      projectId: noted.projectId,
      visitorId: noted.visitorId,
      conversationId: noted.conversationId,
      query: { limit: PAGE, offset },
    });
    const found = page.data.find((message) => message.id === noted.messageId);
    if (found || page.data.length < PAGE) return found;
  }
};

async function* finished(message: Message, text: string): AsyncGenerator<TokenChunk> {
  const sources = typeof message.metadata === 'object' ? message.metadata.sources : undefined;
  if (text) yield { type: 'delta', delta: text, ...(sources && sources.length > 0 ? { sources } : {}) };
  if (message.status === 'error') {
    yield { type: 'error', code: 'BAD_GATEWAY', error: message.error ?? 'the reply failed' };
    return;
  }
  yield {
    type: 'finish',
    text,
    finishReason: 'stop',
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 },
    ...(sources && sources.length > 0 ? { sources } : {}),
  };
}
