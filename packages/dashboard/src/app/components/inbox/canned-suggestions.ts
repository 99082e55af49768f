import type { CannedReply } from '../../lib/inbox-types';

/**
 * The canned replies a composer starting with "/" asks for: "/ref" matches the shortcuts that
 * start with "ref", then the titles that contain it. Null when the text does not ask (no "/" first,
 * or a space already ended the shortcut).
 */
export const cannedQuery = (text: string): string | null => {
  const match = /^\/([^\s]*)$/.exec(text);
  return match ? match[1]!.toLowerCase() : null;
};

export const matchCanned = (replies: CannedReply[], query: string): CannedReply[] => {
  const byShortcut = replies.filter((r) => r.shortcut.startsWith(query));
  const byTitle = replies.filter((r) => !r.shortcut.startsWith(query) && r.title.toLowerCase().includes(query));
  return [...byShortcut, ...byTitle].slice(0, 8);
};
