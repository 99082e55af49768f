/**
 * Retrieval quality on BEIR SciFact (test split: 5,183 abstracts, 300 judged claims), every
 * number measured in this run:
 *  (a) plain BM25 (k1 0.9, b 0.4, lowercase words, Lucene's English stop words, no stemming),
 *      the published baseline (nDCG@10 about 0.66);
 *  (b) BM25 on the LocalEmbedder's analyzer (light stemming, synonyms, larger stop list);
 *  (c) the LocalEmbedder (feature hashing, no model) with exact cosine, as the search service
 *      ranks in embedded mode;
 *  (d) a hybrid: (a) and (c) fused by reciprocal rank fusion (k = 60). The search service does
 *      not use it: it does not beat (a) here, and (c) alone is what an embedding model replaces.
 * Data: `../shared/data/beir-scifact` from the repo root, or `SCIFACT_DIR`.
 * Run: `npx tsx bench/retrieval.bench.ts` (or `pnpm bench` for every benchmark).
 */
import { fileURLToPath } from 'node:url';
import { LocalEmbedder, analyzeText } from '../packages/platform/src/embedder/local.embedder';
import { Bm25Index } from './bm25';
import { type RunMetrics, evaluateRun } from './ir-metrics';
import { type SciFact, loadSciFact, scifactDir } from './scifact';

export interface Table {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  notes: string[];
}

const DEPTH = 100;
const RRF_K = 60;
/** Lucene's default English stop set, as the published BM25 baselines use. */
const LUCENE_STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '),
);

const plainTokens = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !LUCENE_STOP_WORDS.has(w));

const analyzerTokens = (text: string): string[] => analyzeText(text).map((t) => t.term);

interface Measured {
  name: string;
  metrics: RunMetrics;
  indexMs: number;
  queryMs: number;
  /** query id -> ranked corpus indexes */
  ranked: Map<string, number[]>;
}

const time = async <T>(run: () => T | Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
};

const toRuns = (data: SciFact, ranked: Map<string, number[]>): Map<string, string[]> =>
  new Map([...ranked].map(([q, indexes]) => [q, indexes.map((i) => data.corpus[i]!.id)]));

const bm25Run = async (data: SciFact, name: string, tokens: (text: string) => string[]): Promise<Measured> => {
  const [index, indexMs] = await time(() => {
    const bm25 = new Bm25Index({ k1: 0.9, b: 0.4 });
    for (const doc of data.corpus) bm25.add(tokens(`${doc.title} ${doc.text}`));
    return bm25;
  });
  const [ranked, queryMs] = await time(
    () => new Map(data.queries.map((q) => [q.id, index.search(tokens(q.text), DEPTH).map((h) => h.index)])),
  );
  return { name, metrics: evaluateRun(toRuns(data, ranked), data.qrels), indexMs, queryMs, ranked };
};

const embedderRun = async (data: SciFact, embedder: LocalEmbedder): Promise<Measured> => {
  const dim = embedder.dimensions;
  const n = data.corpus.length;
  const [matrix, indexMs] = await time(async () => {
    const m = new Float32Array(n * dim);
    const vectors = await embedder.embed(
      data.corpus.map((doc) => `${doc.title}\n${doc.text}`),
      'document',
    );
    vectors.forEach((v, i) => m.set(v, i * dim));
    return m;
  });
  const [ranked, queryMs] = await time(async () => {
    const out = new Map<string, number[]>();
    const scores = new Float64Array(n);
    const [queryVectors] = [await embedder.embed(data.queries.map((q) => q.text), 'query')];
    data.queries.forEach((q, qi) => {
      const qv = Float32Array.from(queryVectors[qi]!);
      for (let i = 0; i < n; i++) {
        let s = 0;
        const offset = i * dim;
        for (let j = 0; j < dim; j++) s += matrix[offset + j]! * qv[j]!;
        scores[i] = s;
      }
      out.set(q.id, topIndexes(scores, DEPTH));
    });
    return out;
  });
  return {
    name: `(c) LocalEmbedder ${dim}-d, exact cosine`,
    metrics: evaluateRun(toRuns(data, ranked), data.qrels),
    indexMs,
    queryMs,
    ranked,
  };
};

const topIndexes = (scores: Float64Array, k: number): number[] =>
  Array.from(scores.keys())
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, k);

const rrfRun = (data: SciFact, name: string, parts: Measured[]): Measured => {
  const start = performance.now();
  const ranked = new Map<string, number[]>();
  for (const q of data.queries) {
    const fused = new Map<number, number>();
    for (const part of parts) {
      (part.ranked.get(q.id) ?? []).forEach((doc, rank) => fused.set(doc, (fused.get(doc) ?? 0) + 1 / (RRF_K + rank + 1)));
    }
    ranked.set(
      q.id,
      [...fused]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, DEPTH)
        .map(([doc]) => doc),
    );
  }
  const fuseMs = performance.now() - start;
  return {
    name,
    metrics: evaluateRun(toRuns(data, ranked), data.qrels),
    indexMs: parts.reduce((sum, p) => sum + p.indexMs, 0),
    queryMs: parts.reduce((sum, p) => sum + p.queryMs, 0) + fuseMs,
    ranked,
  };
};

/** A measurement against the baseline (a) of the same run. */
const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}x`;

export const runRetrievalBench = async (): Promise<Table> => {
  const [data, loadMs] = await time(() => loadSciFact());
  const plain = await bm25Run(data, '(a) BM25 k1=0.9 b=0.4, no stemming', plainTokens);
  const analyzed = await bm25Run(data, '(b) BM25 on the LocalEmbedder analyzer', analyzerTokens);
  const vector = await embedderRun(data, new LocalEmbedder());
  const hybrid = rrfRun(data, '(d) hybrid: RRF of (a) and (c), not used', [plain, vector]);
  const q = data.queries.length;
  return {
    title: `Retrieval on BEIR SciFact test (${data.corpus.length} docs, ${q} queries)`,
    columns: ['method', 'recall@5', 'vs (a)', 'MRR@10', 'vs (a)', 'nDCG@10', 'vs (a)', 'index ms', 'query ms (all)', 'ms/query', 'vs (a)'],
    rows: [plain, analyzed, vector, hybrid].map((m) => [
      m.name,
      m.metrics.recallAt5.toFixed(4),
      ratio(m.metrics.recallAt5, plain.metrics.recallAt5),
      m.metrics.mrrAt10.toFixed(4),
      ratio(m.metrics.mrrAt10, plain.metrics.mrrAt10),
      m.metrics.ndcgAt10.toFixed(4),
      ratio(m.metrics.ndcgAt10, plain.metrics.ndcgAt10),
      Math.round(m.indexMs),
      Math.round(m.queryMs),
      (m.queryMs / q).toFixed(2),
      ratio(m.queryMs, plain.queryMs),
    ]),
    notes: [
      `data: ${scifactDir()} (loaded in ${Math.round(loadMs)} ms)`,
      'published BM25 nDCG@10 on this split: 0.665 (BEIR paper); a plain BM25 reproduces about 0.661',
      'the search service ranks as (c): pure vector search, one result per document',
      'vs (a): the ratio to the plain BM25 baseline measured in this run',
    ],
  };
};

export const formatTable = (table: Table): string => {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [
    table.title,
    line(table.columns),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
    ...table.notes.map((n) => `  ${n}`),
  ].join('\n');
};

export const printRetrievalBench = async (): Promise<void> => {
  console.log(formatTable(await runRetrievalBench()));
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await printRetrievalBench();
}
