/**
 * Whether a reply's text says the assistant could not answer. The reply rules ask every model to
 * "say plainly that you don't know" (inference's prompt builder), and the local responder says
 * DONT_KNOW_ANSWER, so these phrases near the start of the reply catch both.
 */
const DECLINING = [
  /\bdon['’]t know\b/,
  /\bdo not know\b/,
  /\bdon['’]t have (?:any )?(?:information|details|an answer)\b/,
  /\bdo not have (?:any )?(?:information|details|an answer)\b/,
  /\b(?:can['’]t|cannot|am unable to|i['’]m unable to) (?:help|answer|find)\b/,
  /\bno information (?:about|on)\b/,
  /\bnot sure\b/,
];

/** Only the opening is read: a long answer that mentions "not sure" further down still answered. */
const OPENING_CHARS = 240;

export const isDeclined = (text: string): boolean => {
  const opening = text.slice(0, OPENING_CHARS).toLowerCase();
  return DECLINING.some((pattern) => pattern.test(opening));
};
