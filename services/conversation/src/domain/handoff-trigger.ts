/** Used when the project enables handoff without listing its own phrases. */
const DEFAULT_HANDOFF_TRIGGERS: readonly string[] = [
  'talk to a human',
  'speak to a human',
  'talk to a person',
  'speak to a person',
  'talk to an agent',
  'speak to an agent',
  'human agent',
  'real person',
];

const normalize = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * Whether the visitor asks for a person: one of the phrases appears in the message as whole
 * words, ignoring case, accents and punctuation. An empty list means the default phrases.
 */
export const asksForHuman = (content: string, phrases: readonly string[]): boolean => {
  const text = ` ${normalize(content)} `;
  const list = phrases.length > 0 ? phrases : DEFAULT_HANDOFF_TRIGGERS;
  return list.some((phrase) => {
    const words = normalize(phrase);
    return words.length > 0 && text.includes(` ${words} `);
  });
};
