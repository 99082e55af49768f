import { describe, expect, it } from 'vitest';
import { fuseScores } from './score-fusion';

describe('fuseScores', () => {
  it('averages each score divided by its best, best first', () => {
    const fused = fuseScores([
      { id: 'a', payload: 'A', lexical: 10, similarity: 0.2 },
      { id: 'b', payload: 'B', lexical: 4, similarity: 0.4 },
      { id: 'c', payload: 'C', lexical: 0, similarity: -0.1 },
    ]);
    expect(fused.map((f) => [f.id, f.score])).toEqual([
      ['a', 0.5 + 0.5 * 0.5],
      ['b', 0.5 * 0.4 + 0.5],
      ['c', 0],
    ]);
  });

  it('gives 1 to a candidate best on both, and copes with a retriever that found nothing', () => {
    expect(fuseScores([{ id: 'a', payload: null, lexical: 3, similarity: 0.5 }])[0]!.score).toBe(1);
    expect(fuseScores([{ id: 'a', payload: null, lexical: 0, similarity: 0.5 }])[0]!.score).toBe(0.5);
    expect(fuseScores([])).toEqual([]);
  });
});
