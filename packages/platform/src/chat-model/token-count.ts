import type { ChatMessage } from '@palaver/contracts';

/**
 * The project's simple tokenizer, used wherever a token count is needed without a model's own
 * tokenizer (the local responder's usage, prompt budgets). One token is:
 * - a run of at most 10 letters, digits or combining marks ("internationalization" is 2),
 * - a single ideograph, hiragana or katakana character (those scripts do not separate words),
 * - a single other non-space character (punctuation, symbols, emoji).
 * Whitespace is free. Counts are close to a BPE tokenizer's for English prose, and stable.
 */
const TOKEN =
  /[\p{Ideographic}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Ideographic}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}]){1,10}|[^\s\p{L}\p{N}\p{M}]/gu;

/** Each message of a prompt costs one extra token for its role marker. */
export const MESSAGE_OVERHEAD_TOKENS = 1;

/** Letters and digits: the only ASCII characters in `\p{L}\p{N}\p{M}`. */
const isAsciiWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** `\s` within ASCII: tab, line feed, vertical tab, form feed, carriage return, space. */
const isAsciiSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * The same count as TOKEN's for ASCII text, without the regular expression's matches (prompts
 * are counted on every reply); null as soon as the text is not ASCII.
 */
const countAsciiTokens = (text: string): number | null => {
  let count = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return null;
    if (isAsciiWordChar(c)) {
      if (run % 10 === 0) count++;
      run++;
      continue;
    }
    run = 0;
    if (!isAsciiSpace(c)) count++;
  }
  return count;
};

export const countTokens = (text: string): number => {
  const ascii = countAsciiTokens(text);
  if (ascii !== null) return ascii;
  let count = 0;
  for (const _ of text.matchAll(TOKEN)) count++;
  return count;
};

export const countMessageTokens = (message: ChatMessage): number => countTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;

export const countPromptTokens = (messages: readonly ChatMessage[]): number => messages.reduce((sum, m) => sum + countMessageTokens(m), 0);

/**
 * The text within `maxTokens` tokens: unchanged when it fits, else cut and ended with an
 * ellipsis (which counts as one of the tokens).
 */
export const truncateToTokens = (text: string, maxTokens: number): string => {
  if (maxTokens <= 0) return '';
  if (countTokens(text) <= maxTokens) return text;
  const keep = maxTokens - 1;
  if (keep === 0) return '…';
  let seen = 0;
  for (const match of text.matchAll(TOKEN)) {
    seen++;
    if (seen === keep) return `${text.slice(0, match.index + match[0].length)}…`;
  }
  return text;
};
