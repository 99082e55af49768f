/** Standard ranking metrics over one query's ranked document ids and its judgments (grade > 0 is relevant). */
const relevant = (judged: ReadonlyMap<string, number>, id: string) => (judged.get(id) ?? 0) > 0;

export const recallAt = (ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number => {
  const all = [...judged.values()].filter((g) => g > 0).length;
  return all === 0 ? 0 : ranked.slice(0, k).filter((id) => relevant(judged, id)).length / all;
};

export const mrrAt = (ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number =>
  1 / (ranked.slice(0, k).findIndex((id) => relevant(judged, id)) + 1 || Number.POSITIVE_INFINITY);

/** nDCG with linear gains (as trec_eval and BEIR compute it). */
export const ndcgAt = (ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number => {
  const dcg = (gains: number[]) => gains.slice(0, k).reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const ideal = dcg([...judged.values()].filter((g) => g > 0).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((id) => judged.get(id) ?? 0)) / ideal;
};

/** Means over the judged queries; a query with no ranked list scores 0. */
export const evaluateRun = (runs: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, ReadonlyMap<string, number>>) => {
  const sums = { recallAt5: 0, recallAt100: 0, mrrAt10: 0, ndcgAt10: 0 };
  for (const [queryId, judged] of qrels) {
    const ranked = runs.get(queryId) ?? [];
    sums.recallAt5 += recallAt(ranked, judged, 5);
    sums.recallAt100 += recallAt(ranked, judged, 100);
    sums.mrrAt10 += mrrAt(ranked, judged, 10);
    sums.ndcgAt10 += ndcgAt(ranked, judged, 10);
  }
  const n = qrels.size || 1;
  return { recallAt5: sums.recallAt5 / n, recallAt100: sums.recallAt100 / n, mrrAt10: sums.mrrAt10 / n, ndcgAt10: sums.ndcgAt10 / n };
};
