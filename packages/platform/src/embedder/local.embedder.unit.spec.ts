import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyzeText, LocalEmbedder, lightStem, termBucket } from './local.embedder';

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
  return names
    .map((n, i) => ({ n, s: dot(q!, docs[i]!) }))
    .sort((a, b) => b.s - a.s)
    .map((x) => x.n);
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

  // Stored vectors (an existing data folder's index) stay valid only while a text gives the
  // same floats: these digests are of the vectors the embedder gave before it summed only the
  // dimensions a text touches.
  it.each([
    ['How long is the guarantee on electronics?', '3bad870c000e22b8', 'dd940bc8ffbebdba'],
    [pages.returns, 'dcb906add0a4f37d', 'f80e0aa801ac1ded'],
    ['Ünïcödé café résumé naïve', '5c09a8cdfa01e34e', '43eb848ca42404ff'],
  ])('gives the floats it always gave for %j', (text, plain, weighted) => {
    const digest = (vector: number[]) => createHash('sha256').update(new Float64Array(vector)).digest('hex').slice(0, 16);
    expect(digest(embedder.embedOne(text))).toBe(plain);
    expect(digest(embedder.embedOne(text, (term) => term.length / 3))).toBe(weighted);
  });

  it('carries nothing from one text to the next', () => {
    const text = 'How long is the guarantee on electronics?';
    const alone = new LocalEmbedder(2048).embedOne(text);
    embedder.embedOne(pages.shipping);
    embedder.embedOne(text, () => 5);
    expect(embedder.embedOne(text)).toEqual(alone);
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

describe('LocalEmbedder term weighting', () => {
  const embedder = new LocalEmbedder(2048);
  const weighting = embedder.termWeighting;

  it('names its scheme and bucket count, the same for every dimension', () => {
    expect(weighting.buckets).toBeGreaterThanOrEqual(1024);
    expect(weighting.scheme).toContain(String(weighting.buckets));
    expect(new LocalEmbedder(512).termWeighting.scheme).toBe(weighting.scheme);
  });

  it("gives a text's distinct term buckets once each, sorted and in range", () => {
    const buckets = weighting.termBuckets('Shipping, shipped, ships: the shipping of the parcels. Parcel!');
    expect(buckets).toEqual([...new Set(buckets)].sort((a, b) => a - b));
    const terms = new Set(analyzeText('shipping parcel').map((t) => t.term));
    expect(buckets).toEqual([...terms].map(termBucket).sort((a, b) => a - b));
    for (const b of buckets) expect(b >= 0 && b < weighting.buckets && Number.isInteger(b)).toBe(true);
  });

  it('counts synonyms and inflections as one term and stop words as none', () => {
    expect(weighting.termBuckets('guarantee')).toEqual(weighting.termBuckets('warranties'));
    expect(weighting.termBuckets('refunded')).toEqual(weighting.termBuckets('money back'));
    expect(weighting.termBuckets('the and of')).toEqual([]);
  });

  it('embeds a query as `embed` does when every term weighs the same', async () => {
    const text = 'How long is the guarantee on electronics?';
    const [plain] = await embedder.embed([text], 'query');
    for (const w of [1, 3.7]) {
      const weighted = await weighting.embedWeightedQuery(text, () => w);
      for (const [i, v] of weighted.entries()) expect(v).toBeCloseTo(plain![i]!, 12);
    }
  });

  it('moves the query toward the pages of the terms that weigh more, and stays unit length', async () => {
    const [returns, shipping] = await embedder.embed([pages.returns, pages.shipping], 'document');
    const question = 'refund for a late delivery';
    const [refund] = weighting.termBuckets('refund');
    const towards = async (heavy: number | undefined) => weighting.embedWeightedQuery(question, (bucket) => (bucket === heavy ? 8 : 1));
    const refundHeavy = await towards(refund);
    expect(norm(refundHeavy)).toBeCloseTo(1, 10);
    expect(dot(refundHeavy, returns!)).toBeGreaterThan(dot(refundHeavy, shipping!));
    const [delivery] = weighting.termBuckets('delivery');
    const deliveryHeavy = await towards(delivery);
    expect(dot(deliveryHeavy, shipping!)).toBeGreaterThan(dot(deliveryHeavy, returns!));
  });
});
