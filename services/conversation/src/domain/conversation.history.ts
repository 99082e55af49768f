import type { ChatMessage } from '@palaver/contracts';
import type { ExistingConversation } from './conversation.state';

export const HISTORY_LIMIT = 20;

/**
 * The recent conversation for the model, oldest first: visitor messages as `user`, assistant
 * and human-agent messages as `assistant`. Replies still streaming or without
 * any text are left out.
 */
export const recentHistory = (state: ExistingConversation, limit = HISTORY_LIMIT): ChatMessage[] => {
  const turns: ChatMessage[] = [];
  for (const message of state.messages) {
    if (message.status === 'streaming') continue;
    if (message.role === 'user') {
      turns.push({ role: 'user', content: message.text });
    } else if (message.text.trim().length > 0) {
      turns.push({ role: 'assistant', content: message.text });
    }
  }
  return turns.slice(-limit);
};
