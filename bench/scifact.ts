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
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);

export const loadSciFact = async (dir = scifactDir()): Promise<SciFact> => {
  const corpus = await jsonLines<{ _id: string; title?: string; text?: string }>(path.join(dir, 'corpus.jsonl'));
  const queries = await jsonLines<{ _id: string; text: string }>(path.join(dir, 'queries.jsonl'));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of (await readFile(path.join(dir, 'qrels-test.tsv'), 'utf8')).split('\n').slice(1)) {
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
