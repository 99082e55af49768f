/** Okapi BM25 over pre-tokenized documents (an inverted index held in memory). */
export interface Bm25Options {
  k1: number;
  b: number;
}

export interface ScoredDoc {
  index: number;
  score: number;
}

interface Posting {
  docs: number[];
  freqs: number[];
}

export class Bm25Index {
  private readonly postings = new Map<string, Posting>();
  private readonly lengths: number[] = [];
  private totalLength = 0;

  constructor(private readonly options: Bm25Options = { k1: 0.9, b: 0.4 }) {}

  get size(): number {
    return this.lengths.length;
  }

  /** Adds a document and returns its index (0, 1, 2, ... in insertion order). */
  add(tokens: readonly string[]): number {
    const index = this.lengths.length;
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [term, freq] of counts) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = { docs: [], freqs: [] };
        this.postings.set(term, posting);
      }
      posting.docs.push(index);
      posting.freqs.push(freq);
    }
    this.lengths.push(tokens.length);
    this.totalLength += tokens.length;
    return index;
  }

  /** The best `limit` documents for the query, best first; documents sharing no term are left out. */
  search(queryTokens: readonly string[], limit: number): ScoredDoc[] {
    const n = this.lengths.length;
    if (n === 0 || limit <= 0) return [];
    const { k1, b } = this.options;
    const avgLength = this.totalLength / n || 1;
    const scores = new Map<number, number>();
    for (const term of new Set(queryTokens)) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const df = posting.docs.length;
      // Lucene's idf: never negative, so a term in most documents still counts a little.
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < df; i++) {
        const doc = posting.docs[i]!;
        const tf = posting.freqs[i]!;
        const norm = k1 * (1 - b + (b * this.lengths[doc]!) / avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm));
      }
    }
    return topK(scores, limit);
  }
}

const topK = (scores: Map<number, number>, limit: number): ScoredDoc[] => {
  const all: ScoredDoc[] = [];
  for (const [index, score] of scores) all.push({ index, score });
  all.sort((x, y) => y.score - x.score || x.index - y.index);
  return all.slice(0, limit);
};
