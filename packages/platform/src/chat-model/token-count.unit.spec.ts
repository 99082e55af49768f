import { describe, expect, it } from 'vitest';
import { countPromptTokens, countTokens, truncateToTokens } from './token-count';

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
