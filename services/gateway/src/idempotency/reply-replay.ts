import { AppError, ConversationMessages, type Message, type TokenChunk } from '@palaver/contracts';
import type { FastifyReply } from 'fastify';
import type { GatewayDeps } from '../gateway.deps';
import { sendPlainTextReply } from '../replies/plain-text-reply';
import { attachToReply, replayedChunks } from '../replies/reply-replay';
import { type ReplySource, sendReply } from '../replies/send-reply';
import type { NotedReply } from './idempotency.store';

const PAGE = 1000;

export type ReplayDeps = Pick<GatewayDeps, 'services' | 'replyLog' | 'config'>;

/**
 * Answers a repeat of a request whose reply was streamed, in the first answer's format (a UI
 * message stream, or plain text). A finished reply is the stored message's whole text; one still
 * being generated (or not yet readable from the store) is attached to, as `/stream` does: its
 * fragments replayed from the reply log from the first, then followed live to the end.
 */
export const replayReply = async (deps: ReplayDeps, reply: FastifyReply, noted: NotedReply): Promise<void> => {
  const message = await findMessage(deps, noted);
  if (!message || message.status === 'streaming') return attach(deps, reply, noted);
  const text = message.parts.map((part) => part.text).join('');
  const source: ReplySource = { chunks: () => finished(message, text) };
  if (noted.format === 'plain-text') return sendPlainTextReply(reply, source, true);
  return sendReply(reply, source, { stream: true, jsonStatus: 200, textId: message.id, messageId: message.id });
};

const attach = async (deps: ReplayDeps, reply: FastifyReply, noted: NotedReply): Promise<void> => {
  if (noted.format === 'ui-message-stream') {
    await attachToReply(deps, reply, { conversationId: noted.conversationId, assistantMessageId: noted.messageId });
    return;
  }
  // Plain text carries only the text: the log's deltas, written as they come, then the end.
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  const source: ReplySource = { chunks: () => replayedChunks(deps.replyLog, noted.messageId, deps.config.REPLY_TIMEOUT_MS, gone.signal) };
  await sendPlainTextReply(reply, source, true);
};

export const replyInProgress = (): AppError =>
  new AppError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being handled: retry once it has finished', {
    retryable: true,
  });

const findMessage = async ({ services }: ReplayDeps, noted: NotedReply): Promise<Message | undefined> => {
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
