/**
 * Retrieval quality on BEIR SciFact (test split: 5,183 abstracts, 300 judged claims), every
 * number measured in this run:
 *  (a) plain BM25 (k1 0.9, b 0.4, lowercase words, Lucene's English stop words, no stemming),
 *      the published baseline (nDCG@10 about 0.66);
 *  (b) BM25 on the LocalEmbedder's analyzer (light stemming, synonyms, larger stop list);
 *  (c) the LocalEmbedder (feature hashing, no model) with exact cosine and no corpus statistics;
 *  (d) a hybrid: (a) and (c) fused by reciprocal rank fusion (k = 60);
 *  (e) (c) with the query weighted per dimension by the IDF of that dimension (a dimension occurs
 *      in a document when its value is non-zero), renormalized; documents unchanged;
 *  (f) (e) with the documents weighted the same way and renormalized, using the statistics of
 *      the whole corpus: an upper bound, not something an index can keep (see the note);
 *  (g) (c) with the query's terms weighted by their IDF over the corpus (counted in the
 *      embedder's hashed term buckets; each word's IDF scales its bigrams and character n-grams),
 *      documents unchanged: what the search service ranks with in embedded mode;
 *  (h) (b) and (g) fused by reciprocal rank fusion.
 * The vector runs score every document exactly (the query's non-zero dimensions against every
 * stored vector), as the embedded vector index does.
 * Data: `../shared/data/beir-scifact` from the repo root, or `SCIFACT_DIR`.
 * Run: `npx tsx bench/retrieval.bench.ts` (or `pnpm bench` for every benchmark).
 */
import { fileURLToPath } from 'node:url';
import { LocalEmbedder, analyzeText } from '../packages/platform/src/embedder/local.embedder';
import { contributionOf, idfWeights, termIdf } from '../services/search/src/domain/term-statistics';
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

const documentText = (doc: SciFact['corpus'][number]): string => `${doc.title}\n${doc.text}`;

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

/** Document vectors, one row each. */
interface VectorCorpus {
  dim: number;
  n: number;
  matrix: Float32Array;
  indexMs: number;
}

const embedCorpus = async (data: SciFact, embedder: LocalEmbedder): Promise<VectorCorpus> => {
  const dim = embedder.dimensions;
  const n = data.corpus.length;
  const [matrix, indexMs] = await time(async () => {
    const m = new Float32Array(n * dim);
    (await embedder.embed(data.corpus.map(documentText), 'document')).forEach((v, i) => m.set(v, i * dim));
    return m;
  });
  return { dim, n, matrix, indexMs };
};

/** Ranks every document by its dot product with each query vector (cosine: all vectors are unit length). */
const vectorRun = async (
  data: SciFact,
  name: string,
  corpus: VectorCorpus,
  queryVector: (text: string) => Promise<number[]>,
  extraIndexMs = 0,
): Promise<Measured> => {
  const { dim, n, matrix } = corpus;
  const [ranked, queryMs] = await time(async () => {
    const out = new Map<string, number[]>();
    const scores = new Float64Array(n);
    for (const q of data.queries) {
      const v = await queryVector(q.text);
      const dims: number[] = [];
      v.forEach((x, j) => {
        if (x !== 0) dims.push(j);
      });
      for (let i = 0; i < n; i++) {
        let s = 0;
        const offset = i * dim;
        for (const j of dims) s += matrix[offset + j]! * v[j]!;
        scores[i] = s;
      }
      out.set(q.id, topIndexes(scores, DEPTH));
    }
    return out;
  });
  return {
    name,
    metrics: evaluateRun(toRuns(data, ranked), data.qrels),
    indexMs: corpus.indexMs + extraIndexMs,
    queryMs,
    ranked,
  };
};

const topIndexes = (scores: Float64Array, k: number): number[] =>
  Array.from(scores.keys())
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, k);

const unit = (v: ArrayLike<number>): number[] => {
  let norm = 0;
  for (let j = 0; j < v.length; j++) norm += v[j]! * v[j]!;
  norm = Math.sqrt(norm);
  return Array.from(v, (x) => (norm > 0 ? x / norm : 0));
};

/** The IDF of each dimension over the corpus vectors (a dimension occurs where it is non-zero). */
const dimensionIdf = (corpus: VectorCorpus): Float64Array => {
  const df = new Float64Array(corpus.dim);
  for (let i = 0; i < corpus.n; i++) {
    const offset = i * corpus.dim;
    for (let j = 0; j < corpus.dim; j++) if (corpus.matrix[offset + j] !== 0) df[j]! += 1;
  }
  return df.map((d) => termIdf(d, corpus.n));
};

const weightedCorpus = (corpus: VectorCorpus, idf: Float64Array): VectorCorpus => {
  const matrix = new Float32Array(corpus.matrix.length);
  for (let i = 0; i < corpus.n; i++) {
    const offset = i * corpus.dim;
    const row = unit(Array.from(corpus.matrix.subarray(offset, offset + corpus.dim), (x, j) => x * idf[j]!));
    matrix.set(row, offset);
  }
  return { ...corpus, matrix };
};

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

  const embedder = new LocalEmbedder();
  const corpus = await embedCorpus(data, embedder);
  const embedQuery = async (text: string): Promise<number[]> => (await embedder.embed([text], 'query'))[0]!;
  const vector = await vectorRun(data, `(c) LocalEmbedder ${corpus.dim}-d, exact cosine`, corpus, embedQuery);
  const hybrid = rrfRun(data, '(d) RRF of (a) and (c)', [plain, vector]);

  const [dimIdf, dimMs] = await time(() => dimensionIdf(corpus));
  const weightQuery = async (text: string) => unit((await embedQuery(text)).map((x, j) => x * dimIdf[j]!));
  const dimQuery = await vectorRun(data, '(e) (c) + query dimension IDF', corpus, weightQuery, dimMs);
  const [reweighted, reweightMs] = await time(() => weightedCorpus(corpus, dimIdf));
  const dimBoth = await vectorRun(data, '(f) (c) + dimension IDF both sides', reweighted, weightQuery, dimMs + reweightMs);

  const weighting = embedder.termWeighting;
  const [counts, countMs] = await time(() =>
    contributionOf(data.corpus.map((doc) => weighting.termBuckets(documentText(doc)))),
  );
  const weights = idfWeights(counts);
  const termQuery = await vectorRun(
    data,
    '(g) (c) + query term IDF (search service)',
    corpus,
    (text) => weighting.embedWeightedQuery(text, weights),
    countMs,
  );
  const fused = rrfRun(data, '(h) RRF of (b) and (g)', [analyzed, termQuery]);

  const q = data.queries.length;
  return {
    title: `Retrieval on BEIR SciFact test (${data.corpus.length} docs, ${q} queries)`,
    columns: ['method', 'recall@5', 'vs (a)', 'MRR@10', 'vs (a)', 'nDCG@10', 'vs (a)', 'index ms', 'query ms (all)', 'ms/query', 'vs (a)'],
    rows: [plain, analyzed, vector, hybrid, dimQuery, dimBoth, termQuery, fused].map((m) => [
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
      'the search service ranks as (g) with the LocalEmbedder (as (c) with an embedding model): pure vector search, one result per document',
      '(f) needs the final statistics when a document is embedded: an index that grows would have to re-embed everything as they change',
      'index ms of (e)-(g): the embedding of (c) plus the statistics; vs (a): the ratio to the plain BM25 baseline measured in this run',
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
