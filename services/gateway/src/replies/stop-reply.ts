import {
  ConversationMessages,
  REPLY_STOPS_CHANNEL,
  type ReplySource,
  STOPPED_FINISH_REASON,
  type StoppedReply,
  type StopReplyResponse,
  TokenChunk,
} from '@palaver/contracts';
import type { GatewayDeps } from '../gateway.deps';

export interface ConversationScope {
  projectId: string;
  visitorId: string;
  conversationId: string;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 };

/**
 * The assistant message of the visitor's conversation being generated now, or null. Reads the
 * conversation as its owner (another visitor's: 404).
 */
export const replyInProgress = async (services: GatewayDeps['services'], scope: ConversationScope): Promise<string | null> => {
  const conversation = await services.send(ConversationMessages.get, scope);
  const streaming = (conversation.messages ?? []).findLast((m) => m.role === 'assistant' && m.status === 'streaming');
  return streaming?.id ?? null;
};

/**
 * Stops the reply in progress: stored first as complete with the text its log holds (what the
 * visitor saw) and the finish reason STOPPED_FINISH_REASON, so the worker's own report comes
 * too late to change it; then its terminal chunk ends every stream of it (the log's readers and,
 * through REPLY_STOPS_CHANNEL, the gateways' listeners), and the workers cancel its model call.
 */
export const stopReply = async (
  { services, replyLog, pubsub }: Pick<GatewayDeps, 'services' | 'replyLog' | 'pubsub'>,
  scope: ConversationScope,
): Promise<StopReplyResponse> => {
  const replyId = await replyInProgress(services, scope);
  if (replyId === null) return { stopped: false, messageId: null };
  let text = '';
  let sources: ReplySource[] | undefined;
  for (const entry of await replyLog.entries(replyId)) {
    const chunk = TokenChunk.safeParse(entry);
    if (!chunk.success) continue;
    // Already over: its end is being stored.
    if (chunk.data.type !== 'delta') return { stopped: false, messageId: replyId };
    text += chunk.data.delta;
    sources ??= chunk.data.sources;
  }
  const finish = { type: 'finish', text, finishReason: STOPPED_FINISH_REASON, usage: NO_USAGE, sources: sources ?? [] } as const;
  await services.send(ConversationMessages.completeReply, {
    messageId: replyId,
    text,
    finishReason: finish.finishReason,
    usage: NO_USAGE,
    sources: finish.sources,
    projectId: scope.projectId,
    conversationId: scope.conversationId,
  });
  await replyLog.append(replyId, finish);
  await pubsub.publish(REPLY_STOPS_CHANNEL, { replyId, chunk: finish } satisfies StoppedReply);
  return { stopped: true, messageId: replyId };
};
