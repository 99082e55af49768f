/** Standard ranking metrics over one query's ranked document ids and its judgments (grade > 0 is relevant). */
export const recallAt = (ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number => {
  const relevant = [...judged.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length / relevant;
};

export const mrrAt = (ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number => {
  const rank = ranked.slice(0, k).findIndex((id) => (judged.get(id) ?? 0) > 0);
  return rank < 0 ? 0 : 1 / (rank + 1);
};

/** nDCG with linear gains (as trec_eval and BEIR compute it). */
export const ndcgAt = (ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number => {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (judged.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
};

export interface RunMetrics {
  recallAt5: number;
  mrrAt10: number;
  ndcgAt10: number;
}

/** Means over the queries; a query with no ranked list scores 0. */
export const evaluateRun = (
  runs: ReadonlyMap<string, readonly string[]>,
  qrels: ReadonlyMap<string, ReadonlyMap<string, number>>,
): RunMetrics => {
  let recall = 0;
  let mrr = 0;
  let ndcg = 0;
  for (const [queryId, judged] of qrels) {
    const ranked = runs.get(queryId) ?? [];
    recall += recallAt(ranked, judged, 5);
    mrr += mrrAt(ranked, judged, 10);
    ndcg += ndcgAt(ranked, judged, 10);
  }
  const n = qrels.size || 1;
  return { recallAt5: recall / n, mrrAt10: mrr / n, ndcgAt10: ndcg / n };
};
