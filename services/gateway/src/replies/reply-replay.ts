import { TokenChunk } from '@palaver/contracts';
import type { ReplyLog } from '@palaver/platform';
import type { FastifyReply } from 'fastify';
import type { GatewayDeps } from '../gateway.deps';
import { openStream } from '../http/open-stream';
import { toUiMessageChunks, uiMessageStreamHeaders, writeUiMessageStream } from './ui-message-stream';

/**
 * A reply's fragments read from its log, from the first: live until its terminal chunk, or an
 * error once it stayed silent `idleMs` (as a live listener says it).
 */
export async function* replayedChunks(log: ReplyLog, replyId: string, idleMs: number, signal: AbortSignal): AsyncGenerator<TokenChunk> {
  for await (const entry of log.follow(replyId, { idleMs, signal })) {
    const parsed = TokenChunk.safeParse(entry);
    if (!parsed.success) continue;
    const chunk = parsed.data;
    if (chunk.type === 'error') {
      const { interrupted: _, ...told } = chunk;
      yield told;
      return;
    }
    yield chunk;
    if (chunk.type === 'finish') return;
  }
  if (!signal.aborted) yield { type: 'error', code: 'SERVICE_UNAVAILABLE', error: 'the reply timed out' };
}

/** The reply a response attaches to: the conversation's assistant message being generated. */
export interface ReplyTarget {
  conversationId: string;
  assistantMessageId: string;
}

/**
 * Attaches `reply` (not yet sent) to the reply `target`: the UI message stream of that reply,
 * replayed from its first chunk, then followed live to `[DONE]`, from whichever gateway. What
 * `GET /v2/conversations/{id}/stream` answers, and what a repeated streamed message (the same
 * Idempotency-Key) can answer. Resolves once the stream has ended. A reply whose log has expired
 * (REPLY_LOG_TTL_MS after its last chunk) is waited for until REPLY_TIMEOUT_MS, then ends with an error.
 */
export const attachToReply = (deps: Pick<GatewayDeps, 'replyLog' | 'config'>, reply: FastifyReply, target: ReplyTarget): Promise<void> => {
  const stream = openStream(reply, { headers: uiMessageStreamHeaders });
  const id = target.assistantMessageId;
  const chunks = replayedChunks(deps.replyLog, id, deps.config.REPLY_TIMEOUT_MS, stream.gone);
  return writeUiMessageStream(stream, toUiMessageChunks(chunks, { textId: id, messageId: id }));
};
