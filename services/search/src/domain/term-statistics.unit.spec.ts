import { describe, expect, it } from 'vitest';
import { contributionOf, countsDelta, idfWeights, statsShardOf, sumCounts, termIdf } from './term-statistics';

describe('contributionOf', () => {
  it('counts each bucket once per chunk, and the chunks', () => {
    expect(contributionOf([[1, 2, 2], [2, 7], []])).toEqual({ chunks: 3, df: { 1: 1, 2: 2, 7: 1 } });
    expect(contributionOf([])).toEqual({ chunks: 0, df: {} });
  });
});

describe('countsDelta', () => {
  const a = { chunks: 2, df: { 1: 2, 5: 1 } };
  const b = { chunks: 3, df: { 1: 1, 5: 1, 9: 3 } };

  it('is the new counts minus the old ones, without zeros', () => {
    expect(countsDelta(a, b)).toEqual({ chunks: 1, df: { 1: -1, 9: 3 } });
  });

  it('adds a new document and removes a deleted one', () => {
    expect(countsDelta(null, b)).toEqual(b);
    expect(countsDelta(a, null)).toEqual({ chunks: -2, df: { 1: -2, 5: -1 } });
  });

  it('is empty for an unchanged document', () => {
    expect(countsDelta(a, a)).toEqual({ chunks: 0, df: {} });
  });

  it('added to the old counts gives the new ones', () => {
    expect(sumCounts([a, countsDelta(a, b)])).toEqual(b);
  });
});

describe('sumCounts', () => {
  it('adds chunks and frequencies and drops buckets that fall to zero', () => {
    expect(
      sumCounts([
        { chunks: 1, df: { 1: 1 } },
        { chunks: 2, df: { 1: -1, 4: 2 } },
      ]),
    ).toEqual({ chunks: 3, df: { 4: 2 } });
    expect(sumCounts([])).toEqual({ chunks: 0, df: {} });
  });
});

describe('termIdf', () => {
  it("is Lucene's BM25 idf", () => {
    expect(termIdf(10, 1000)).toBeCloseTo(Math.log(1 + 990.5 / 10.5), 12);
    expect(termIdf(1000, 1000)).toBeCloseTo(Math.log(1 + 0.5 / 1000.5), 12);
  });

  it('falls as a term gets more common and stays positive', () => {
    const values = [1, 2, 10, 100, 999, 1000].map((df) => termIdf(df, 1000));
    expect(values).toEqual([...values].sort((x, y) => y - x));
    expect(new Set(values).size).toBe(values.length);
    for (const v of values) expect(v).toBeGreaterThan(0);
  });

  it('treats a term the chunks lack as seen once', () => {
    expect(termIdf(0, 50)).toBe(termIdf(1, 50));
  });

  it('stays finite and positive on counts that ran ahead of the chunks, and is neutral without chunks', () => {
    expect(termIdf(12, 10)).toBe(termIdf(10, 10));
    expect(termIdf(-3, 10)).toBe(termIdf(1, 10));
    expect(termIdf(0, 0)).toBe(1);
    expect(termIdf(3, 1)).toBeGreaterThan(0);
  });
});

describe('idfWeights', () => {
  it('weights each bucket by its idf over the chunks, a missing bucket as seen once', () => {
    const weight = idfWeights({ chunks: 100, df: { 3: 40, 8: 2 } });
    expect(weight(3)).toBe(termIdf(40, 100));
    expect(weight(8)).toBe(termIdf(2, 100));
    expect(weight(11)).toBe(termIdf(1, 100));
    expect(weight(8)).toBeGreaterThan(weight(3));
  });
});

describe('statsShardOf', () => {
  const ids = Array.from({ length: 1600 }, (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`);

  it('puts a document always in the same shard, within range', () => {
    for (const id of ids.slice(0, 50)) {
      const shard = statsShardOf(id, 16);
      expect(statsShardOf(id, 16)).toBe(shard);
      expect(Number.isInteger(shard) && shard >= 0 && shard < 16).toBe(true);
    }
  });

  it('spreads ids that differ in a few characters over every shard', () => {
    const sizes = new Array<number>(16).fill(0);
    for (const id of ids) sizes[statsShardOf(id, 16)]! += 1;
    expect(Math.min(...sizes)).toBeGreaterThan(50);
    expect(Math.max(...sizes)).toBeLessThan(150);
  });
});
