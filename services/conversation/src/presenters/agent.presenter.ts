import type { AgentConversation } from '@palaver/contracts';
import type { ConversationDoc, MessageDoc } from '../repositories/read-model';
import { toMessage } from './conversation.presenter';

/** At most this many unanswered visitor messages are shown per conversation. */
const UNANSWERED_LIMIT = 20;

/** Visitor messages after the last human agent message (all of them when no agent answered yet). */
export const unansweredMessages = (messages: readonly MessageDoc[]): MessageDoc[] => {
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  const lastAgent = sorted.findLastIndex((m) => m.role === 'human_agent');
  return sorted
    .slice(lastAgent + 1)
    .filter((m) => m.role === 'user')
    .slice(-UNANSWERED_LIMIT);
};

export const toAgentConversation = (doc: ConversationDoc, messages: readonly MessageDoc[]): AgentConversation => ({
  id: doc._id,
  visitorId: doc.visitorId,
  status: doc.status,
  title: doc.title,
  createdAt: doc.createdAt,
  lastInteractionAt: doc.lastInteractionAt,
  handoff: doc.handoffStatus,
  handoffRequestedAt: doc.handoffRequestedAt ?? null,
  humanAgent: doc.humanAgent ? { id: doc.humanAgent.id ?? null, name: doc.humanAgent.name, image: doc.humanAgent.image } : null,
  unansweredMessages: unansweredMessages(messages).map((m) => toMessage(m)),
  ...(doc.contact ? { contact: doc.contact } : {}),
});
