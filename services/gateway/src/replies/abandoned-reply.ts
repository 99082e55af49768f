import { ConversationMessages, REPLY_INTERRUPTED, REPLY_TIMED_OUT } from '@palaver/contracts';
import type { ServiceClient } from '@palaver/platform';
import type { AbandonReason } from './reply-listener';

/**
 * What a conversation reply's listener does when it gives the reply up (see ReplyListener): it
 * stores the reply as failed with the text relayed so far, the text the visitor saw. Recorded
 * first, so a worker finishing late cannot store it as complete.
 */
export const recordAbandonedReply =
  (services: ServiceClient, reply: { projectId: string; conversationId: string; messageId: string }) =>
  (partialText: string, reason: AbandonReason): Promise<unknown> =>
    services.send(
      ConversationMessages.failReply,
      { ...reply, error: reason === 'interrupted' ? REPLY_INTERRUPTED : REPLY_TIMED_OUT, partialText },
      // The visitor waits for this: not the full service timeout when conversation is down.
      { timeoutMs: 5_000 },
    );
