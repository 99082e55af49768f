export const TITLE_MAX_LENGTH = 80;

/**
 * A conversation's title: its first visitor message, whitespace collapsed, cut to at most 80
 * characters on a word boundary (with an ellipsis that counts toward the 80). A single word
 * longer than that is cut mid-word. Null when the message has no visible text.
 */
export const conversationTitle = (content: string): string | null => {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text.length === 0) return null;
  if (text.length <= TITLE_MAX_LENGTH) return text;
  const room = TITLE_MAX_LENGTH - 1;
  const head = text.slice(0, room + 1);
  const lastSpace = head.lastIndexOf(' ');
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : text.slice(0, room);
  return `${cut.trimEnd()}…`;
};
