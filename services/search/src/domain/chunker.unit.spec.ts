import { describe, expect, it } from 'vitest';
import { type Chunk, chunkDocument } from './chunker';

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** Removes each chunk's overlap with the previous one and checks the words come back in order. */
const expectCoversInOrder = (chunks: Chunk[], original: string): void => {
  const expected = words(original);
  let position = 0;
  for (const chunk of chunks) {
    const w = words(chunk.text);
    // The chunk starts at or before the current position (its overlap) and continues from there.
    let start = -1;
    for (let s = position; s >= Math.max(0, position - w.length) && start < 0; s--) {
      if (w.every((word, i) => expected[s + i] === word) && s + w.length > position) start = s;
    }
    expect(start, `chunk ${chunk.index} does not continue the text`).toBeGreaterThanOrEqual(0);
    position = start + w.length;
  }
  expect(position).toBe(expected.length);
};

describe('chunkDocument', () => {
  it('returns no chunk for empty or blank content', () => {
    expect(chunkDocument('')).toEqual([]);
    expect(chunkDocument('  \n\n \t\n')).toEqual([]);
  });

  it('keeps a short plain text as one chunk without headings', () => {
    expect(chunkDocument('Hello there.\nSecond line.')).toEqual([{ index: 0, headings: [], text: 'Hello there.\nSecond line.' }]);
  });

  it('follows the heading path: nesting, siblings and a return to a higher level', () => {
    const doc = [
      'Intro text.',
      '# Shipping',
      'We ship worldwide.',
      '## Costs',
      'Free above 50 EUR.',
      '## Times',
      'Three days.',
      '### Express ###',
      'Next day.',
      '# Returns',
      'Thirty days.',
    ].join('\n');
    expect(chunkDocument(doc).map((c) => [c.index, c.headings, c.text])).toEqual([
      [0, [], 'Intro text.'],
      [1, ['Shipping'], 'We ship worldwide.'],
      [2, ['Shipping', 'Costs'], 'Free above 50 EUR.'],
      [3, ['Shipping', 'Times'], 'Three days.'],
      [4, ['Shipping', 'Times', 'Express'], 'Next day.'],
      [5, ['Returns'], 'Thirty days.'],
    ]);
  });

  it('skips empty sections but keeps them in the path of their subsections', () => {
    const doc = '# Help\n\n## Empty\n\n## Orders\n### Tracking\nUse the link in the e-mail.\n# Also empty\n';
    expect(chunkDocument(doc)).toEqual([{ index: 0, headings: ['Help', 'Orders', 'Tracking'], text: 'Use the link in the e-mail.' }]);
  });

  it('makes a document of headings only findable by its headings', () => {
    const chunks = chunkDocument('# Warranty\n## Two years\n## Defects only');
    expect(chunks).toEqual([{ index: 0, headings: [], text: 'Warranty\nTwo years\nDefects only' }]);
  });

  it('does not read lines inside fenced code as headings, and keeps the block whole', () => {
    const doc = '# Setup\n```sh\n# install\n\nnpm i palaver\n```\nDone.';
    const chunks = chunkDocument(doc);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headings).toEqual(['Setup']);
    expect(chunks[0]!.text).toBe('```sh\n# install\n\nnpm i palaver\n```\n\nDone.');
  });

  it('does not take a hashtag for a heading', () => {
    expect(chunkDocument('#sale starts today')).toEqual([{ index: 0, headings: [], text: '#sale starts today' }]);
  });

  it('packs small paragraphs together up to the bound', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph number ${i} says something short.`);
    const chunks = chunkDocument(paragraphs.join('\n\n'), { maxChars: 200, overlapChars: 40 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.length).toBeLessThan(15);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(200);
    expect(chunks[0]!.text.split('\n\n').length).toBeGreaterThan(1);
    expectCoversInOrder(chunks, paragraphs.join(' '));
  });

  it('splits a single huge paragraph at sentence ends with overlap, every chunk within the bound', () => {
    const sentences = Array.from({ length: 120 }, (_, i) => `Sentence ${i} explains one detail of the returns policy.`);
    const text = sentences.join(' ');
    const chunks = chunkDocument(`# Returns\n${text}`, { maxChars: 1000, overlapChars: 150 });
    expect(chunks.length).toBeGreaterThanOrEqual(7);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(1000);
      expect(c.text.length).toBeGreaterThan(500);
      expect(c.headings).toEqual(['Returns']);
    }
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!.text;
      const head = chunks[i]!.text.slice(0, 60);
      expect(previous.includes(head)).toBe(true);
    }
    expectCoversInOrder(chunks, text);
  });

  it('splits a paragraph without punctuation between words, and cuts a word longer than a chunk', () => {
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkDocument(text, { maxChars: 300, overlapChars: 50 });
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(300);
    expectCoversInOrder(chunks, text);

    const giant = 'x'.repeat(1000);
    const cut = chunkDocument(giant, { maxChars: 300, overlapChars: 50 });
    expect(cut.length).toBeGreaterThanOrEqual(4);
    for (const c of cut) expect(c.text.length).toBeLessThanOrEqual(300);
    expect(cut.map((c) => c.text.replace(/\s/g, '')).join('')).toBe(giant);
  });

  it('does not carry overlap across sections', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Fact ${i} about shipping.`).join(' ');
    const chunks = chunkDocument(`# A\n${long}\n# B\nOnly this.`, { maxChars: 300, overlapChars: 80 });
    expect(chunks.at(-1)).toEqual({ index: chunks.length - 1, headings: ['B'], text: 'Only this.' });
  });

  it('rejects options that cannot work', () => {
    expect(() => chunkDocument('x', { maxChars: 100, overlapChars: 100 })).toThrow();
  });
});
