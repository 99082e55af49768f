import { describe, expect, it } from 'vitest';
import { LocalEmbedder, analyzeText, lightStem } from './local.embedder';

const dot = (a: number[], b: number[]): number => a.reduce((sum, v, i) => sum + v * b[i]!, 0);
const norm = (a: number[]): number => Math.sqrt(dot(a, a));

const pages = {
  warranty:
    'Warranty. Every device we sell comes with a two year warranty covering manufacturing defects. ' +
    'Accidental damage and normal wear are not covered.',
  shipping:
    'Shipping. Orders placed before 2pm are dispatched the same day. Standard delivery takes 3 to 5 business days; ' +
    'express delivery arrives the next day.',
  returns:
    'Returns and refunds. You can send back any unused item within 30 days of receipt for a full refund to your ' +
    'original payment method.',
  hours: 'Store hours. Our shop in Lyon is open Monday to Saturday from 9am to 7pm and closed on Sundays.',
  privacy: 'Privacy policy. We store your name and address only to process your order and never sell your data.',
  product: 'Aurora X2 headphones. Wireless over-ear headphones with noise cancelling and 30 hours of battery life. Price: 199 EUR.',
};

const rank = async (embedder: LocalEmbedder, question: string): Promise<string[]> => {
  const names = Object.keys(pages) as Array<keyof typeof pages>;
  const docs = await embedder.embed(
    names.map((n) => pages[n]),
    'document',
  );
  const [q] = await embedder.embed([question], 'query');
  return names.map((n, i) => ({ n, s: dot(q!, docs[i]!) })).sort((a, b) => b.s - a.s).map((x) => x.n);
};

describe('LocalEmbedder', () => {
  const embedder = new LocalEmbedder(2048);

  it('has the configured dimension and a name that tells it apart', () => {
    expect(embedder.dimensions).toBe(2048);
    expect(new LocalEmbedder(1024).name).not.toBe(embedder.name);
    expect(() => new LocalEmbedder(10)).toThrow();
  });

  it('is deterministic across calls and instances', async () => {
    const text = 'How long is the guarantee on electronics?';
    const [a] = await embedder.embed([text], 'query');
    const [b] = await new LocalEmbedder(2048).embed([text], 'query');
    expect(a).toEqual(b);
    expect(a).toHaveLength(2048);
  });

  it('returns one L2-normalized vector per text, and a zero vector for text with no words', async () => {
    const vectors = await embedder.embed([pages.warranty, 'refund', 'the and of', ''], 'document');
    expect(vectors).toHaveLength(4);
    expect(norm(vectors[0]!)).toBeCloseTo(1, 10);
    expect(norm(vectors[1]!)).toBeCloseTo(1, 10);
    expect(vectors[2]!.every((v) => v === 0)).toBe(true);
    expect(vectors[3]!.every((v) => v === 0)).toBe(true);
  });

  it('gives identical texts cosine 1 and unrelated texts a low similarity', async () => {
    const [a, b, c] = await embedder.embed([pages.shipping, pages.shipping, pages.privacy], 'document');
    expect(dot(a!, b!)).toBeCloseTo(1, 10);
    expect(dot(a!, c!)).toBeLessThan(0.2);
  });

  it.each([
    ['how long is the guarantee on electronics', 'warranty'],
    ['when will my parcel be delivered', 'shipping'],
    ['can I get my money back', 'returns'],
    ['what time do you open on saturday', 'hours'],
    ['how much do the Aurora headphones cost', 'product'],
  ])('ranks the right page first for "%s"', async (question, expected) => {
    expect((await rank(embedder, question))[0]).toBe(expected);
  });
});

describe('analyzeText', () => {
  it('drops stop words, stems and folds synonyms onto one concept', () => {
    const terms = (text: string) => analyzeText(text).map((t) => t.term);
    expect(terms('the guarantee')).toEqual(terms('warranties'));
    expect(terms('Shipping costs')).toEqual(terms('delivery price'));
    expect(terms('What is the')).toEqual([]);
    expect(terms('Café')).toEqual(terms('cafe'));
  });

  it('stems inflections to a shared form and leaves short words alone', () => {
    expect(lightStem('shipping')).toBe(lightStem('shipped'));
    expect(lightStem('covers')).toBe(lightStem('covering'));
    expect(lightStem('boxes')).toBe('box');
    expect(lightStem('bus')).toBe('bus');
    expect(lightStem('2024s')).toBe('2024s');
  });
});

describe('two-word synonyms', () => {
  it('folds a phrase onto its concept without folding its words alone', () => {
    const terms = (text: string) => analyzeText(text).map((t) => t.term);
    expect(terms('money back')).toEqual(terms('refund'));
    expect(terms('money-back')).toEqual(terms('refund'));
    expect(terms('back pain')).not.toContain(terms('refund')[0]);
    expect(terms('sign in')).toEqual(terms('login'));
  });
});
