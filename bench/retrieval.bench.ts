/**
 * Retrieval on BEIR SciFact (test split: 5,183 abstracts, 300 judged claims), every number
 * measured in this run:
 *  (a) plain BM25 (k1 0.9, b 0.4, lowercase words, Lucene's English stop words, no stemming):
 *      the published baseline;
 *  (b) BM25 (k1 1.2, b 0.75) on the local analyzer, over whole documents: the search service's
 *      lexical half, alone;
 *  (c) the local embedder with the query's terms weighted by their IDF over the corpus, exact
 *      cosine over whole documents: about the service's vector half, alone (which ranks chunks);
 *  (s) the search service itself: every abstract created through DocumentService, every claim
 *      through SearchService.search (hybrid: (b) and (c) fused), one result per document.
 * Then the service's search latency on this corpus and on about 100,000 chunks.
 * Data: `../shared/data/beir-scifact` from the repo root, or `SCIFACT_DIR`.
 */
import type { DocumentRecord } from '@palaver/contracts';
import { EmbeddedVectorIndex, LocalEmbedder, loadConfig, systemClock } from '../packages/platform/src/index';
import { Bm25Index } from '../services/search/src/domain/bm25.index';
import type { ChunkPayload } from '../services/search/src/domain/knowledge-payload';
import { documentChunks } from '../services/search/src/domain/knowledge-text';
import { pointId } from '../services/search/src/domain/point-id';
import { contributionOf, idfWeights } from '../services/search/src/domain/term-statistics';
import { DocumentRepository } from '../services/search/src/repositories/document.repository';
import { KnowledgeRevisionRepository } from '../services/search/src/repositories/knowledge-revision.repository';
import { LexicalIndex, lexicalTokens } from '../services/search/src/repositories/lexical-index';
import { percentile, type Table, timed } from './common';
import { evaluateRun, loadSciFact, type SciFact, scifactDir } from './scifact';
import { type SearchServiceUnderTest, startSearchServiceUnderTest } from './search-service';

const DEPTH = 100;
/** Lucene's default English stop set, as the published BM25 baselines use. */
const LUCENE_STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);
const plainTokens = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !LUCENE_STOP_WORDS.has(w));
const documentText = (doc: SciFact['corpus'][number]): string => `${doc.title}\n${doc.text}`;
const docUrl = (id: string): string => `https://scifact.example/doc/${id}`;

/** Indexes with `index` (timed), warms it up, then ranks every claim with `rank` (runs: query id -> ranked corpus ids). */
const method = async <I>(
  data: SciFact,
  name: string,
  index: () => Promise<I> | I,
  rank: (i: I, query: string) => Promise<string[]> | string[],
  warm?: (i: I) => Promise<unknown>,
) => {
  const [built, indexMs] = await timed(index);
  await warm?.(built);
  const runs = new Map<string, string[]>();
  const queryMs: number[] = [];
  for (const q of data.queries) {
    const [ranked, ms] = await timed(() => rank(built, q.text));
    runs.set(q.id, ranked);
    queryMs.push(ms);
  }
  return { name, runs, queryMs, indexMs, index: built };
};

const bm25 = (data: SciFact, name: string, tokens: (t: string) => string[], k1: number, b: number) =>
  method(
    data,
    name,
    () => {
      const index = new Bm25Index({ k1, b });
      for (const doc of data.corpus) index.add(doc.id, tokens(`${doc.title} ${doc.text}`));
      return index;
    },
    (index, query) => index.search(tokens(query), DEPTH).map((h) => h.id),
  );

/** Exact cosine of the IDF-weighted query against every document vector. */
const vectors = (data: SciFact, name: string) => {
  const embedder = new LocalEmbedder();
  const weighting = embedder.termWeighting;
  return method(
    data,
    name,
    async () => ({
      vectors: (await embedder.embed(data.corpus.map(documentText), 'document')).map((v) => Float32Array.from(v)),
      weights: idfWeights(contributionOf(data.corpus.map((d) => weighting.termBuckets(documentText(d))))),
    }),
    async ({ vectors, weights }, query) => {
      const v = await weighting.embedWeightedQuery(query, weights);
      const dims = v.flatMap((x, j) => (x === 0 ? [] : [j]));
      const scored = vectors.map((d, i) => ({ i, s: dims.reduce((s, j) => s + d[j]! * v[j]!, 0) }));
      return scored
        .sort((x, y) => y.s - x.s || x.i - y.i)
        .slice(0, DEPTH)
        .map(({ i }) => data.corpus[i]!.id);
    },
  );
};

/** Creates every abstract through the service (one project), then searches it. */
const service = async (data: SciFact, name: string) => {
  const under = await startSearchServiceUnderTest();
  const { projectId } = under;
  let chunks = 0;
  const result = await method(
    data,
    name,
    async () => {
      for (const doc of data.corpus)
        chunks += (await under.documents.create(projectId, { title: doc.title, url: docUrl(doc.id), content: doc.text })).chunkCount;
      return under;
    },
    async (s, query) => (await s.search.search(projectId, query, DEPTH)).results.map((r) => r.url.slice(r.url.lastIndexOf('/') + 1)),
    (s) => s.search.search(projectId, 'warm up', 10),
  );
  return { ...result, chunks };
};

/** The claims again at `size` 10 as a widget asks: ms of the service (wall and CPU: its cost less the waiting for a core) and of its lexical half. */
const latency = async (s: SearchServiceUnderTest, data: SciFact) => {
  const { projectId } = s;
  const samples = { full: [] as number[], cpu: [] as number[], lexical: [] as number[] };
  for (const q of data.queries) {
    samples.full.push((await timed(() => s.search.search(projectId, q.text, 10)))[1]);
    const cpu = process.cpuUsage();
    await s.search.search(projectId, q.text, 10);
    const used = process.cpuUsage(cpu);
    samples.cpu.push((used.user + used.system) / 1000);
    samples.lexical.push((await timed(() => s.lexical.search(projectId, q.text, DEPTH)))[1]);
  }
  return samples;
};

/**
 * The corpus's chunks again and again under new document ids, up to `target`, written to the
 * lexical and vector indexes (in memory: 100,000 vectors would log gigabytes) as DocumentService
 * writes them, each distinct text embedded once; then its latency.
 */
const largeProject = async (data: SciFact, target: number) => {
  const s = await startSearchServiceUnderTest((infra) => ({ ...infra, vectors: EmbeddedVectorIndex.inMemory() }));
  const { projectId } = s;
  const perDoc = data.corpus.map((doc) => documentChunks(doc.title, doc.text));
  const distinct = perDoc.flat().map((c) => c.text);
  const vectorOf = new Map(distinct.map((text, i) => [text, i]));
  const embedded = await new LocalEmbedder().embed(distinct, 'document');
  await s.search.search(projectId, 'warm up', 10); // the lexical index exists from here on
  let [chunks, lexicalMs, vectorMs] = [0, 0, 0];
  for (let copy = 0; chunks < target; copy++) {
    for (let d = 0; d < data.corpus.length && chunks < target; d++) {
      const doc = data.corpus[d]!;
      const now = new Date().toISOString();
      const [id, version] = [pointId('large', copy, doc.id), pointId('v', copy, doc.id)];
      const common = { projectId, title: doc.title, url: docUrl(doc.id), path: `/doc/${doc.id}` };
      const record: DocumentRecord = { id, ...common, content: doc.text, chunkCount: perDoc[d]!.length, createdAt: now, updatedAt: now };
      const points = perDoc[d]!.map(({ chunk, text }) => {
        const payload: ChunkPayload = {
          ...common,
          documentId: id,
          version,
          kind: 'chunk',
          chunkIndex: chunk.index,
          headings: chunk.headings,
          content: chunk.text,
        };
        return { id: pointId(id, version, chunk.index), vector: embedded[vectorOf.get(text)!]!, payload };
      });
      vectorMs += (await timed(() => s.vectors.upsertChunks(points)))[1];
      lexicalMs += (await timed(() => s.lexical.documentChanged(projectId, id, null, { record, version })))[1];
      chunks += points.length;
    }
  }
  await latency(s, data); // warm up
  const samples = await latency(s, data);
  await s.close();
  return { chunks, lexicalMs, vectorMs, samples };
};

const fixed = (x: number, digits = 4): string => x.toFixed(digits);
const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}x`;
const perSecond = (count: number, ms: number): number => Math.round(count / (ms / 1000));
const p = (samples: number[], at: number) => fixed(percentile(samples, at / 100), 2);

export const retrievalBench = async (): Promise<Table[]> => {
  const [data, loadMs] = await timed(() => loadSciFact());
  const plain = await bm25(data, '(a) BM25 k1=0.9 b=0.4, no stemming', plainTokens, 0.9, 0.4);
  const lexical = await bm25(data, '(b) BM25 k1=1.2 b=0.75, local analyzer', lexicalTokens, 1.2, 0.75);
  const vector = await vectors(data, '(c) local embedder + query term IDF');
  const hybrid = await service(data, '(s) search service: hybrid of (b) and (c)');
  const base = evaluateRun(plain.runs, data.qrels);
  const qualityTable: Table = {
    title: `Retrieval on BEIR SciFact test (${data.corpus.length} docs, ${data.queries.length} queries)`,
    columns: ['method', 'nDCG@10', 'vs (a)', 'recall@100', 'vs (a)', 'MRR@10', 'recall@5', 'index docs/s', 'ms/query p50', 'p99'],
    rows: [plain, lexical, vector, hybrid].map((m) => {
      const q = evaluateRun(m.runs, data.qrels);
      const againstPlain = (metric: 'ndcgAt10' | 'recallAt100') => [fixed(q[metric]), ratio(q[metric], base[metric])];
      const quality = [...againstPlain('ndcgAt10'), ...againstPlain('recallAt100'), fixed(q.mrrAt10), fixed(q.recallAt5)];
      return [m.name, ...quality, perSecond(data.corpus.length, m.indexMs), p(m.queryMs, 50), p(m.queryMs, 99)];
    }),
    notes: [
      `data: ${scifactDir()} (loaded in ${Math.round(loadMs)} ms); published BM25 nDCG@10 on this split: 0.665 (BEIR paper)`,
      '(s) indexes through DocumentService.create one document at a time (chunking, embedding, vector index, term statistics, lexical index, embedded stores on /dev/shm); (a)-(c) index in memory only',
      '(s) queries SearchService.search with size 100 (recall@100); its latency at size 10 is in the next table',
    ],
  };
  const small = await latency(hybrid.index, data);
  // A restart: a new instance's lexical index is rebuilt from the documents on its first search.
  const store = hybrid.index.infra.documents;
  const restarted = new LexicalIndex(new DocumentRepository(store), new KnowledgeRevisionRepository(store), systemClock, loadConfig());
  const [, rebuildMs] = await timed(() => restarted.search(hybrid.index.projectId, 'rebuild', 1));
  await hybrid.index.close();
  const fiveK = await largeProject(data, 5_000);
  const large = await largeProject(data, 100_000);
  const row = (label: string, chunks: number, s: { full: number[]; cpu: number[]; lexical: number[] }) => [
    label,
    chunks,
    ...[s.full, s.cpu, s.lexical].flatMap((samples) => [p(samples, 50), p(samples, 99)]),
    ratio(percentile(s.full, 0.5), percentile(s.lexical, 0.5)),
  ];
  const latencyTable: Table = {
    title: 'Search service latency (SearchService.search, size 10, the 300 SciFact claims, ms)',
    columns: ['project', 'chunks', 'search p50', 'p99', 'CPU p50', 'CPU p99', 'BM25 half p50', 'p99', 'search/BM25 p50'],
    rows: [
      row('SciFact, first chunks', fiveK.chunks, fiveK.samples),
      row('SciFact', hybrid.chunks, small),
      row(`SciFact x${Math.ceil(large.chunks / hybrid.chunks)}`, large.chunks, large.samples),
    ],
    notes: [
      `indexing: SciFact through DocumentService ${perSecond(data.corpus.length, hybrid.indexMs)} docs/s (${perSecond(hybrid.chunks, hybrid.indexMs)} chunks/s); ` +
        `the large project: lexical index ${perSecond(large.chunks, large.lexicalMs)} chunks/s (with the revision write), in-memory vector index ${perSecond(large.chunks, large.vectorMs)} chunks/s (embedding excluded); ` +
        `lexical index rebuilt from the documents after a restart: ${perSecond(data.corpus.length, rebuildMs)} docs/s`,
      'SciFact: the project indexed through DocumentService above; the first chunks and the large project are written to the lexical and vector indexes directly (vectors in memory only, no term statistics: the query is embedded unweighted), repeating the corpus under new document ids',
      "with the local embedder the vector index re-scores the chunks of BM25's 100 best documents by id instead of scanning every chunk",
      "wall-clock latencies are noisy on a shared machine, p99 most of all; CPU: the process's CPU time per search (all its threads, GC included)",
    ],
  };
  return [qualityTable, latencyTable];
};
