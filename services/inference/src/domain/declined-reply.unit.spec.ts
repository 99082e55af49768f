import { describe, expect, it } from 'vitest';
import { DONT_KNOW_ANSWER } from '../../../../packages/platform/src/chat-model/grounded-answer';
import { isDeclined } from './declined-reply';

describe('isDeclined', () => {
  it('reads a reply that says it cannot answer as declined', () => {
    expect(isDeclined("I'm sorry, I don't know the answer to that.")).toBe(true);
    expect(isDeclined('I do not have any information about Mars deliveries.')).toBe(true);
    expect(isDeclined(DONT_KNOW_ANSWER)).toBe(true);
  });

  it('reads an answer as answered, even one that says "not sure" far down', () => {
    expect(isDeclined('We open at 9.')).toBe(false);
    expect(isDeclined(`${'Our bikes come with a two-year warranty. '.repeat(8)}Not sure? Ask us.`)).toBe(false);
  });
});
