import { describe, expect, it } from 'vitest';
import { conversationTitle, TITLE_MAX_LENGTH } from './conversation.title';

describe('conversationTitle', () => {
  it('is the trimmed message, whitespace collapsed', () => {
    expect(conversationTitle('  Where is\n my   order? ')).toBe('Where is my order?');
  });

  it('keeps a message of exactly 80 characters whole', () => {
    const text = 'a'.repeat(TITLE_MAX_LENGTH);
    expect(conversationTitle(text)).toBe(text);
  });

  it('cuts a long message on a word boundary, at most 80 characters', () => {
    const text = `${'word '.repeat(30)}end`;
    const title = conversationTitle(text)!;
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX_LENGTH);
    expect(title.endsWith('word…')).toBe(true);
    expect(title).toBe(`${'word '.repeat(16).trimEnd()}…`);
  });

  it('cuts a single over-long word mid-word', () => {
    const title = conversationTitle('x'.repeat(200))!;
    expect(title).toBe(`${'x'.repeat(79)}…`);
  });

  it('is null without visible text', () => {
    expect(conversationTitle(' \n\t ')).toBeNull();
  });
});
