import { useEffect, useRef } from 'preact/hooks';
import type { WidgetMessage } from './chat-session';

/** A message the visitor should know about: an answer (assistant or person) that is complete. */
const counts = (message: WidgetMessage) => message.role !== 'user' && message.status !== 'streaming';

/**
 * How many answers arrived while the panel was closed (the launcher's badge): every answer on
 * screen when it is open is seen, and opening it clears the count.
 */
export const useUnread = (messages: WidgetMessage[], open: boolean): number => {
  const seen = useRef(new Set<string>());
  const answered = messages.filter(counts);
  useEffect(() => {
    if (open) for (const message of answered) seen.current.add(message.key);
  });
  if (open) return 0;
  return answered.filter((message) => !seen.current.has(message.key)).length;
};
