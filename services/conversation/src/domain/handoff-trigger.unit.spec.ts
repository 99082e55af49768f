import { describe, expect, it } from 'vitest';
import { asksForHuman } from './handoff-trigger';

describe('asksForHuman', () => {
  it('finds a default phrase as whole words, ignoring case and punctuation', () => {
    expect(asksForHuman('Please, can I TALK to a human?', [])).toBe(true);
    expect(asksForHuman('I want a real-person answer', [])).toBe(true);
    expect(asksForHuman('What does shipping cost?', [])).toBe(false);
    expect(asksForHuman('talk to a humanoid robot', [])).toBe(false);
  });

  it('uses only the project phrases when given, accents folded', () => {
    expect(asksForHuman('Je veux parler à un conseiller', ['parler a un conseiller'])).toBe(true);
    expect(asksForHuman('talk to a human', ['parler a un conseiller'])).toBe(false);
  });
});
