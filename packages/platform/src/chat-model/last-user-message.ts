import type { ChatMessage } from '@palaver/contracts';

/** The content of the last user message of a conversation, or null when there is none. */
export const lastUserMessage = (messages: readonly ChatMessage[]): string | null => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return message.content;
  }
  return null;
};
