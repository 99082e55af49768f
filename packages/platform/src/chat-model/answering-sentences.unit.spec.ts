import type { RetrievedChunk } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { answeringSentences } from './answering-sentences';
import { questionStems } from './text-relevance';

const chunk = (content: string, extra: Partial<RetrievedChunk> = {}): RetrievedChunk => ({
  documentId: '00000000-0000-4000-8000-000000000001',
  title: 'Delivery',
  url: 'https://shop.example/delivery',
  content,
  score: 0.4,
  ...extra,
});

const faq = chunk(
  [
    'Delivery and click-and-collect',
    'How long does delivery take?',
    'Parcels arrive within 2 to 3 working days.',
    'What does delivery cost?',
    'Delivery is free over 100 euros. Below that it costs 9.90 euros.',
  ].join('\n\n'),
);

const answer = (c: RetrievedChunk, question: string, max = 2) => answeringSentences(c, questionStems(question), max);

describe('answeringSentences', () => {
  it('answers an FAQ question with the statements below it, never the heading or the question', () => {
    expect(answer(faq, 'How long does delivery take?')).toBe('Parcels arrive within 2 to 3 working days.');
    expect(answer(faq, 'What does delivery cost?')).toBe('Delivery is free over 100 euros. Below that it costs 9.90 euros.');
  });

  it('stops an FAQ answer at the next question, and at maxSentences', () => {
    expect(answer(faq, 'What does delivery cost?', 1)).toBe('Delivery is free over 100 euros.');
  });

  it('prefers a statement that holds more of the question than any FAQ question', () => {
    expect(answer(faq, 'Is delivery free over 100 euros?', 1)).toBe('Delivery is free over 100 euros.');
  });

  it("takes the page's first statements, not its heading, when none holds the question's words", () => {
    const page = chunk('Refurbished bikes\n\nEvery bike is checked in our workshop.\n\nEach has a 12 month warranty.', { title: 'Bikes' });
    expect(answer(page, 'What is on this page?')).toBe('Every bike is checked in our workshop. Each has a 12 month warranty.');
  });

  it('keeps list items and a closing line without punctuation as statements', () => {
    const list = chunk('We accept\n\n- credit cards\n\n- PayPal\n\nBank transfer on request');
    expect(answer(list, 'Can I pay by PayPal?', 1)).toBe('- PayPal');
    expect(answer(list, 'Is bank transfer possible?', 1)).toBe('Bank transfer on request');
  });

  it('treats a line naming one of the chunk headings as a heading even with punctuation', () => {
    const page = chunk('Shipping costs:\n\nShipping costs 5 euros.', { headings: ['Shipping costs:'] });
    expect(answer(page, 'What are the shipping costs?')).toBe('Shipping costs 5 euros.');
  });
});
