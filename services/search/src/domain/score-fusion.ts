/** A candidate chunk with what each retriever scored it (0: that retriever did not find it). */
export interface FusionCandidate<P> {
  id: string;
  payload: P;
  /** BM25 score. */
  lexical: number;
  /** Cosine similarity with the query. */
  similarity: number;
}

export interface Fused<P> extends FusionCandidate<P> {
  /** In [0, 1]: the mean of both scores, each divided by the query's best. */
  score: number;
}

/**
 * Normalized score fusion with equal weights: each retriever's score divided by its best over
 * the candidates, then averaged. Unlike reciprocal rank fusion it keeps how far apart the scores
 * are, which measured better on BEIR SciFact (bench/retrieval.bench.ts); equal weights, because
 * neither retriever is known to be the better one for a given knowledge base.
 */
export const fuseScores = <P>(candidates: ReadonlyArray<FusionCandidate<P>>): Array<Fused<P>> => {
  let bestLexical = 0;
  let bestSimilarity = 0;
  for (const c of candidates) {
    bestLexical = Math.max(bestLexical, c.lexical);
    bestSimilarity = Math.max(bestSimilarity, c.similarity);
  }
  // The candidate spread last: no keys after a spread on the hot path (docs/architecture.md, "No keys added after a spread").
  return candidates
    .map((c) => ({
      score:
        0.5 * (bestLexical > 0 ? Math.max(c.lexical, 0) / bestLexical : 0) +
        0.5 * (bestSimilarity > 0 ? Math.max(c.similarity, 0) / bestSimilarity : 0),
      ...c,
    }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
};
