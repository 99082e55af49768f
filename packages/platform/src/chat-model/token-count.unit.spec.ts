import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countPromptTokens, countTokens, truncateToTokens } from './token-count';

/**
 * The count of the tokenizer's own expression: a text that is not ASCII is counted by it, and
 * ` é` (a space, then one letter outside ASCII) adds exactly one token.
 */
const byExpression = (text: string): number => countTokens(`${text} é`) - 1;

describe('the project tokenizer', () => {
  it.each([
    ['', 0],
    ['   \n\t', 0],
    ['What are your opening hours?', 6],
    ['Hello, world! 3.14', 7],
    ['internationalization', 2],
    ['日本語テキスト', 7],
    ['café 👋', 2],
  ])('counts %j as %i tokens', (text, count) => {
    expect(countTokens(text)).toBe(count);
  });

  it('counts ASCII text (scanned without the expression) exactly as the expression does', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aZ09_- .,!?\t\n\r\v\f\u0000~\u007f'.split('')), maxLength: 60 });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: 'binary-ascii' })), (text) => countTokens(text) === byExpression(text)),
      {
        numRuns: 2_000,
      },
    );
    expect(countTokens('a'.repeat(10))).toBe(1);
    expect(countTokens('a'.repeat(11))).toBe(2);
    expect(countTokens('a'.repeat(20))).toBe(2);
  });

  it('counts one more token per message for its role', () => {
    expect(
      countPromptTokens([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi!' },
      ]),
    ).toBe(3 + 1 + 2 + 1);
  });

  it('leaves text that fits unchanged', () => {
    expect(truncateToTokens('one two three', 3)).toBe('one two three');
  });

  it('cuts text that does not fit, the ellipsis counting as a token', () => {
    const cut = truncateToTokens('one two, three four five', 4);
    expect(cut).toBe('one two,…');
    expect(countTokens(cut)).toBe(4);
    expect(truncateToTokens('one two', 1)).toBe('…');
    expect(truncateToTokens('one two', 0)).toBe('');
  });
});
