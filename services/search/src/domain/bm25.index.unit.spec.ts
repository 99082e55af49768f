import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25.index';

const words = (text: string) => text.split(' ');

describe('Bm25Index', () => {
  it('ranks the text holding the rarer query term first and leaves out texts sharing no term', () => {
    const index = new Bm25Index();
    index.add('a', words('account settings account password'));
    index.add('b', words('account security login'));
    index.add('c', words('hamster cage account'));
    index.add('d', words('opening hours'));
    const hits = index.search(words('account hamster'), 10);
    expect(hits.map((h) => h.id)).toEqual(['c', 'a', 'b']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('computes Okapi BM25 with Lucene idf', () => {
    const index = new Bm25Index({ k1: 1.2, b: 0.75 });
    index.add('a', words('x y'));
    index.add('b', words('y z z'));
    // "z": df 1 of 2 texts, tf 2 in a text of length 3, average length 2.5.
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const norm = 1.2 * (1 - 0.75 + (0.75 * 3) / 2.5);
    expect(index.search(['z'], 1)[0]!.score).toBeCloseTo((idf * 2 * 2.2) / (2 + norm), 12);
    expect(index.scoreOf(['z', 'q'], ['b', 'a', 'missing'])).toEqual([
      { id: 'b', score: index.search(['z'], 1)[0]!.score },
      { id: 'a', score: 0 },
    ]);
  });

  it('forgets removed and replaced texts, in the statistics too, also after compacting', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 200; i++) index.add(`n${i}`, words(`noise${i} common`));
    index.add('keep', words('rare common'));
    index.add('gone', words('rare rare'));
    index.remove('gone');
    index.add('keep', words('rare word'));
    expect(index.search(['rare'], 5).map((h) => h.id)).toEqual(['keep']);
    const before = index.search(['rare'], 1)[0]!.score;
    for (let i = 0; i < 150; i++) index.remove(`n${i}`);
    expect(index.size).toBe(51);
    const after = index.search(['rare'], 1)[0]!.score;
    const fresh = new Bm25Index();
    for (let i = 150; i < 200; i++) fresh.add(`n${i}`, words(`noise${i} common`));
    fresh.add('keep', words('rare word'));
    expect(after).toBeCloseTo(fresh.search(['rare'], 1)[0]!.score, 12);
    expect(after).not.toBeCloseTo(before, 6);
  });

  it('returns the best `limit` hits, best first, ties by id', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 50; i++) index.add(`d${String(i).padStart(2, '0')}`, words(i % 10 === 0 ? 'term term' : 'term other'));
    const hits = index.search(['term'], 7);
    expect(hits.map((h) => h.id)).toEqual(['d00', 'd10', 'd20', 'd30', 'd40', 'd01', 'd02']);
  });
});
