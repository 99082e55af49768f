import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** BEIR SciFact (test split) as the benchmark reads it. See SOURCE.md in the data folder. */
export interface SciFact {
  corpus: Array<{ id: string; title: string; text: string }>;
  /** Only the queries judged in the test split, in file order. */
  queries: Array<{ id: string; text: string }>;
  /** query id -> (corpus id -> relevance grade) */
  qrels: Map<string, Map<string, number>>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `SCIFACT_DIR` overrides the default `../shared/data/beir-scifact` (relative to the repo root). */
export const scifactDir = (): string =>
  process.env.SCIFACT_DIR ? path.resolve(process.env.SCIFACT_DIR) : path.resolve(repoRoot, '../shared/data/beir-scifact');

const jsonLines = async <T>(file: string): Promise<T[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);

export const loadSciFact = async (dir = scifactDir()): Promise<SciFact> => {
  const corpusRows = await jsonLines<{ _id: string; title?: string; text?: string }>(path.join(dir, 'corpus.jsonl'));
  const queryRows = await jsonLines<{ _id: string; text: string }>(path.join(dir, 'queries.jsonl'));
  const qrelLines = (await readFile(path.join(dir, 'qrels-test.tsv'), 'utf8')).split('\n').slice(1);

  const qrels = new Map<string, Map<string, number>>();
  for (const line of qrelLines) {
    const [queryId, docId, grade] = line.trim().split('\t');
    if (!queryId || !docId || grade === undefined) continue;
    const judged = qrels.get(queryId) ?? new Map<string, number>();
    judged.set(docId, Number(grade));
    qrels.set(queryId, judged);
  }
  return {
    corpus: corpusRows.map((r) => ({ id: String(r._id), title: r.title ?? '', text: r.text ?? '' })),
    queries: queryRows.filter((q) => qrels.has(String(q._id))).map((q) => ({ id: String(q._id), text: q.text })),
    qrels,
  };
};
