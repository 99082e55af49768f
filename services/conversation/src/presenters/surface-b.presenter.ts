import type { Chat, ChatSummary } from '@palaver/contracts';
import type { ConversationDoc, MessageDoc } from '../repositories/read-model';

type ChatMessage = Chat['messages'][number];

const humanAgentOf = (message: MessageDoc): ChatMessage['humanAgent'] =>
  message.role === 'human_agent' && message.metadata.humanAgent
    ? { id: message.humanAgentId ?? null, ...message.metadata.humanAgent }
    : null;

/** A message as surface B's Chat lists it. */
const toChatMessage = (message: MessageDoc): ChatMessage => ({
  id: message._id,
  createdAt: message.createdAt,
  parts: message.parts.map((part) => ({ type: part.type, text: part.text })),
  chatId: message.conversationId,
  role: message.role,
  humanAgentId: message.role === 'human_agent' ? (message.humanAgentId ?? null) : null,
  feedback: message.feedback,
  feedbackAt: message.feedbackAt,
  status: message.status,
  error: message.error,
  metadata: { ...message.metadata },
  pageUrl: message.metadata.pageUrl,
  humanAgent: humanAgentOf(message),
});

export const toChatSummary = (doc: ConversationDoc, last: MessageDoc | undefined): ChatSummary => ({
  id: doc._id,
  status: doc.status,
  createdAt: doc.createdAt,
  closedAt: doc.closedAt,
  lastMessage: last
    ? { id: last._id, feedback: last.feedback, role: last.role, parts: last.parts.map((p) => ({ type: p.type, text: p.text })) }
    : null,
});

/** Surface B's Chat; `customerId` is the visitor id, `lastInterationAt` spelled as the spec spells it. */
export const toChat = (doc: ConversationDoc, messages: readonly MessageDoc[]): Chat => {
  const agent = doc.humanAgent;
  return {
    id: doc._id,
    createdAt: doc.createdAt,
    closedAt: doc.closedAt,
    status: doc.status,
    customerId: doc.visitorId,
    projectId: doc.projectId,
    humanAgentId: agent?.id ?? null,
    closeReason: doc.closeReason,
    handoffAt: doc.handoffAt,
    isHumanHandled: doc.isHumanHandled,
    lastInterationAt: doc.lastInteractionAt,
    humanAgent: agent ? { id: agent.id ?? null, name: agent.name, image: agent.image } : null,
    messages: messages.map(toChatMessage),
  };
};
