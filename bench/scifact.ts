import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** BEIR SciFact (test split) as the benchmark reads it. See SOURCE.md in the data folder. */
export interface SciFact {
  corpus: Array<{ id: string; title: string; text: string }>;
  /** Only the queries judged in the test split, in file order. */
  queries: Array<{ id: string; text: string }>;
  /** query id -> (corpus id -> relevance grade) */
  qrels: Map<string, Map<string, number>>;
}

/** `SCIFACT_DIR`, else `../shared/data/beir-scifact` from the repo root. */
export const scifactDir = (): string =>
  path.resolve(process.env.SCIFACT_DIR ?? path.join(import.meta.dirname, '..', '..', 'shared/data/beir-scifact'));

const jsonLines = async <T>(file: string): Promise<T[]> =>
  (await readFile(path.join(scifactDir(), file), 'utf8'))
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);

export const loadSciFact = async (): Promise<SciFact> => {
  const corpus = await jsonLines<{ _id: string; title?: string; text?: string }>('corpus.jsonl');
  const queries = await jsonLines<{ _id: string; text: string }>('queries.jsonl');
  const qrels = new Map<string, Map<string, number>>();
  for (const line of (await readFile(path.join(scifactDir(), 'qrels-test.tsv'), 'utf8')).split('\n').slice(1)) {
    const [queryId, docId, grade] = line.trim().split('\t');
    if (!queryId || !docId || grade === undefined) continue;
    qrels.set(queryId, (qrels.get(queryId) ?? new Map()).set(docId, Number(grade)));
  }
  return {
    corpus: corpus.map((r) => ({ id: String(r._id), title: r.title ?? '', text: r.text ?? '' })),
    queries: queries.filter((q) => qrels.has(String(q._id))).map((q) => ({ id: String(q._id), text: q.text })),
    qrels,
  };
};

type Judged = ReadonlyMap<string, number>;
const relevant = (judged: Judged, id: string) => (judged.get(id) ?? 0) > 0;
const recallAt = (k: number) => (ranked: readonly string[], judged: Judged) =>
  ranked.slice(0, k).filter((id) => relevant(judged, id)).length /
  ([...judged.values()].filter((g) => g > 0).length || Number.POSITIVE_INFINITY);
const mrrAt = (k: number) => (ranked: readonly string[], judged: Judged) =>
  1 / (ranked.slice(0, k).findIndex((id) => relevant(judged, id)) + 1 || Number.POSITIVE_INFINITY);
/** nDCG with linear gains (as trec_eval and BEIR compute it). */
const ndcgAt = (k: number) => (ranked: readonly string[], judged: Judged) => {
  const dcg = (gains: number[]) => gains.slice(0, k).reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const ideal = dcg([...judged.values()].filter((g) => g > 0).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((id) => judged.get(id) ?? 0)) / ideal;
};

const METRICS = { ndcgAt10: ndcgAt(10), recallAt100: recallAt(100), mrrAt10: mrrAt(10), recallAt5: recallAt(5) };

/** The standard ranking metrics' means over the judged queries (grade > 0 is relevant); a query with no ranked list scores 0. */
export const evaluateRun = (runs: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Judged>) => {
  const mean = (metric: (ranked: readonly string[], judged: Judged) => number) =>
    [...qrels].reduce((sum, [queryId, judged]) => sum + metric(runs.get(queryId) ?? [], judged), 0) / (qrels.size || 1);
  return Object.fromEntries(Object.entries(METRICS).map(([name, metric]) => [name, mean(metric)])) as Record<keyof typeof METRICS, number>;
};
