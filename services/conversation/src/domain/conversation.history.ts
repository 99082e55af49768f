import type { ChatMessage } from '@palaver/contracts';
import { type ExistingConversation, indexOfMessage } from './conversation.state';

export const HISTORY_LIMIT = 20;

/**
 * The recent conversation for the model, oldest first: visitor messages as `user`, assistant
 * and human-agent messages as `assistant`. Replies still streaming or without
 * any text are left out.
 */
export const recentHistory = (state: ExistingConversation, limit = HISTORY_LIMIT): ChatMessage[] =>
  historyOf(state, state.messages.length, limit);

/** The history a regenerated reply answers: the messages before it. */
export const historyBefore = (state: ExistingConversation, messageId: string, limit = HISTORY_LIMIT): ChatMessage[] => {
  const index = indexOfMessage(state, messageId);
  return historyOf(state, index < 0 ? state.messages.length : index, limit);
};

/** Walks back from the message before `end`, so a long conversation costs no more than a short one. */
const historyOf = (state: ExistingConversation, end: number, limit: number): ChatMessage[] => {
  const turns: ChatMessage[] = [];
  for (let i = end - 1; i >= 0 && turns.length < limit; i--) {
    const message = state.messages.at(i)!;
    if (message.status === 'streaming') continue;
    if (message.role === 'user') {
      turns.push({ role: 'user', content: message.text });
    } else if (message.text.trim().length > 0) {
      turns.push({ role: 'assistant', content: message.text });
    }
  }
  return turns.reverse();
};
