import type { ChatMessage, Retrieval } from '@palaver/contracts';
import { countPromptTokens, countTokens } from '@palaver/platform';
import { describe, expect, it } from 'vitest';
import { buildPrompt, DEFAULT_INSTRUCTIONS, type PromptBudget } from './prompt.builder';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const knowledge: Retrieval = {
  qnas: [
    { id: uuid(1), question: 'What are your opening hours?', answer: 'Monday to Friday, 9am to 6pm.', score: 0.9 },
    { id: uuid(2), question: 'Do you ship abroad?', answer: 'Yes, to 30 countries.', score: 0.4 },
  ],
  chunks: [
    { documentId: uuid(10), title: 'Returns policy', url: 'https://shop.example/returns', content: 'Returns within 30 days.', score: 0.7 },
    { documentId: uuid(11), title: 'About us', url: 'https://shop.example/about', content: 'Founded in 2012.', score: 0.2 },
  ],
};

const roomy: PromptBudget = { maxTokens: 10_000, pageContentMaxTokens: 50, knowledgeItemMaxTokens: 100, minLastMessageTokens: 8 };

const words = (n: number, prefix = 'word') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

const history = (turns: number): ChatMessage[] =>
  Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `question ${i} ${words(20, `q${i}x`)}` },
    { role: 'assistant', content: `answer ${i} ${words(20, `a${i}x`)}` },
  ])
    .flat()
    .concat({ role: 'user', content: 'What are your opening hours?' });

describe('buildPrompt', () => {
  it('puts instructions, rules, page context and knowledge in the system message, then the history', () => {
    const conversation = history(1);
    const { messages } = buildPrompt({
      instructions: 'You are the assistant of Acme Shop.',
      pageContext: {
        url: 'https://shop.example/cart',
        title: 'Your cart',
        content: 'Two items in the cart.',
        textSelection: 'free shipping',
      },
      knowledge,
      history: conversation,
      budget: roomy,
    });
    expect(messages.slice(1)).toEqual(conversation);
    const system = messages[0]!;
    expect(system.role).toBe('system');
    const order = [
      'You are the assistant of Acme Shop.',
      'Rules:',
      "say plainly that you don't know",
      'URL: https://shop.example/cart',
      'Title: Your cart',
      'Text the visitor selected: "free shipping"',
      'Two items in the cart.',
      'Knowledge:',
      'Q: What are your opening hours?',
      'A: Monday to Friday, 9am to 6pm.',
      'Q: Do you ship abroad?',
      'Returns policy (https://shop.example/returns)',
      'Returns within 30 days.',
      'About us (https://shop.example/about)',
    ].map((fragment) => system.content.indexOf(fragment));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('uses default instructions, and says so when no knowledge was found', () => {
    const { messages, knowledge: kept } = buildPrompt({
      instructions: '  ',
      pageContext: null,
      knowledge: { qnas: [], chunks: [] },
      history: [{ role: 'user', content: 'Hi' }],
      budget: roomy,
    });
    expect(messages[0]!.content.startsWith(DEFAULT_INSTRUCTIONS)).toBe(true);
    expect(messages[0]!.content).toContain('nothing relevant was found');
    expect(messages[0]!.content).not.toContain('The visitor is on this page');
    expect(kept).toEqual({ qnas: [], chunks: [] });
  });

  it('truncates the page content and the knowledge items', () => {
    const { messages, knowledge: kept } = buildPrompt({
      instructions: 'Help.',
      pageContext: { content: words(200, 'page') },
      knowledge: {
        qnas: [{ ...knowledge.qnas[0]!, answer: words(300, 'ans') }],
        chunks: [{ ...knowledge.chunks[0]!, content: words(300, 'doc') }],
      },
      history: [{ role: 'user', content: 'Hello?' }],
      budget: roomy,
    });
    const system = messages[0]!.content;
    expect(system).toContain(`${words(49, 'page')}…`);
    expect(system).not.toContain('page49');
    expect(countTokens(kept.qnas[0]!.answer)).toBe(100);
    expect(kept.qnas[0]!.answer.endsWith('…')).toBe(true);
    expect(countTokens(kept.chunks[0]!.content)).toBe(100);
  });

  it('drops the oldest history first, keeps the last message and all knowledge while history can go', () => {
    const conversation = history(10);
    const full = buildPrompt({ instructions: 'Help.', pageContext: null, knowledge, history: conversation, budget: roomy });
    const maxTokens = full.tokens - 60;
    const built = buildPrompt({
      instructions: 'Help.',
      pageContext: null,
      knowledge,
      history: conversation,
      budget: { ...roomy, maxTokens },
    });
    expect(built.tokens).toBeLessThanOrEqual(maxTokens);
    expect(built.tokens).toBe(countPromptTokens(built.messages));
    expect(built.droppedHistory).toBeGreaterThan(0);
    expect(built.droppedKnowledge).toBe(0);
    const kept = built.messages.slice(1);
    // A suffix of the conversation: the newest messages, in order.
    expect(kept).toEqual(conversation.slice(conversation.length - kept.length));
    expect(kept.at(-1)).toEqual({ role: 'user', content: 'What are your opening hours?' });
    expect(built.knowledge).toEqual(knowledge);
  });

  it('then drops the lowest-scored knowledge, across Q&A entries and documents', () => {
    const conversation = history(3);
    const lastOnly = buildPrompt({
      instructions: 'Help.',
      pageContext: null,
      knowledge,
      history: conversation.slice(-1),
      budget: roomy,
    });
    const built = buildPrompt({
      instructions: 'Help.',
      pageContext: null,
      knowledge,
      history: conversation,
      budget: { ...roomy, maxTokens: lastOnly.tokens - 1 },
    });
    expect(built.messages.slice(1)).toEqual(conversation.slice(-1));
    expect(built.tokens).toBeLessThanOrEqual(lastOnly.tokens - 1);
    // The chunk scored 0.2 goes first; the rest stays.
    expect(built.droppedKnowledge).toBe(1);
    expect(built.knowledge.chunks.map((c) => c.score)).toEqual([0.7]);
    expect(built.knowledge.qnas.map((q) => q.score)).toEqual([0.9, 0.4]);
    expect(built.messages[0]!.content).not.toContain('About us');

    const tight = buildPrompt({
      instructions: 'Help.',
      pageContext: null,
      knowledge,
      history: conversation,
      budget: { ...roomy, maxTokens: lastOnly.tokens - 45 },
    });
    expect(tight.knowledge.qnas.map((q) => q.score)).toEqual([0.9]);
    expect(tight.knowledge.chunks).toEqual([]);
    expect([built.tokens, tight.tokens]).toEqual([countPromptTokens(built.messages), countPromptTokens(tight.messages)]);
  });

  it('cuts the last message when nothing else is left to drop', () => {
    const question = `Please summarise: ${words(500, 'text')}`;
    const built = buildPrompt({
      instructions: 'Help.',
      pageContext: null,
      knowledge,
      history: [{ role: 'user', content: question }],
      budget: { ...roomy, maxTokens: 300 },
    });
    expect(built.knowledge).toEqual({ qnas: [], chunks: [] });
    expect(built.tokens).toBeLessThanOrEqual(300);
    expect(built.tokens).toBe(countPromptTokens(built.messages));
    const last = built.messages.at(-1)!;
    expect(last.content.startsWith('Please summarise: text0 text1')).toBe(true);
    expect(last.content.endsWith('…')).toBe(true);
  });
});
