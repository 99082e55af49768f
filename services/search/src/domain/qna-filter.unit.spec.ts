import { describe, expect, it } from 'vitest';
import { escapeRegex, qnaQuestionFilter, queryTerms } from './qna-filter';

type RegexCondition = { question: { $regex: string; $options: string } };

/** Evaluates the filter as MongoDB (and mingo) would: each `$regex` with its options, all must match. */
const matches = (query: string, question: string): boolean => {
  const filter = qnaQuestionFilter(query) as { $and?: RegexCondition[] };
  return (filter.$and ?? []).every(({ question: c }) => new RegExp(c.$regex, c.$options).test(question));
};

describe('qnaQuestionFilter', () => {
  it('is empty (matches everything) without query words', () => {
    expect(qnaQuestionFilter(undefined)).toEqual({});
    expect(qnaQuestionFilter('  ? ')).toEqual({});
  });

  it('needs every word as a word prefix, case-insensitively', () => {
    expect(matches('ship', 'What does Shipping cost?')).toBe(true);
    expect(matches('ship cost', 'What does shipping cost?')).toBe(true);
    expect(matches('ship free', 'What does shipping cost?')).toBe(false);
    expect(matches('hip', 'What does shipping cost?')).toBe(false);
    expect(matches('cost?', 'Cost of shipping')).toBe(true);
  });

  it('matches symbols literally', () => {
    expect(matches('c++', 'Is C++ supported?')).toBe(true);
    expect(matches('c++', 'Is C supported?')).toBe(false);
    expect(matches('.*', 'anything at all')).toBe(false);
    expect(matches('$5', 'Is there a $5 fee?')).toBe(true);
  });

  it('strips sentence punctuation and brackets around words only', () => {
    expect(queryTerms('"hours?" (in [pro] c++')).toEqual(['hours', 'in', 'pro', 'c++']);
    expect(escapeRegex('a.b*c(d)[e]|f\\g')).toBe('a\\.b\\*c\\(d\\)\\[e\\]\\|f\\\\g');
  });
});
