/**
 * Retrieval on BEIR SciFact (test split: 5,183 abstracts, 300 judged claims), every number
 * measured in this run:
 *  (a) plain BM25 (k1 0.9, b 0.4, lowercase words, Lucene's English stop words, no stemming):
 *      the published baseline (nDCG@10 about 0.66);
 *  (b) BM25 (k1 1.2, b 0.75) on the local analyzer, over whole documents: the search service's
 *      lexical half, alone;
 *  (c) the local embedder with the query's terms weighted by their IDF over the corpus, exact
 *      cosine over whole documents: about the service's vector half, alone (which ranks chunks);
 *  (s) the search service itself: every abstract created through DocumentService (chunked,
 *      embedded, indexed), every claim through SearchService.search (hybrid: (b) and (c) fused),
 *      one result per document.
 * Then the service's search latency on this corpus and on about 100,000 chunks.
 * Data: `../shared/data/beir-scifact` from the repo root, or `SCIFACT_DIR`.
 * Run: `npx tsx bench/retrieval.bench.ts` (or `pnpm bench` for every benchmark).
 */
import { fileURLToPath } from 'node:url';
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
import { evaluateRun, recallAt } from './ir-metrics';
import { loadSciFact, type SciFact, scifactDir } from './scifact';
import { newProjectId, percentile, type SearchServiceUnderTest, startSearchServiceUnderTest } from './search-service';

export interface Table {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  notes: string[];
}

const DEPTH = 100;
const SMALL_CHUNKS = 5_000;
const LARGE_CHUNKS = 100_000;
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

interface Quality {
  name: string;
  /** query id -> ranked corpus ids */
  runs: Map<string, string[]>;
  queryMs: number[];
  indexMs: number;
}

const timed = async <T>(run: () => T | Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
};

const bm25Run = async (data: SciFact, name: string, tokens: (t: string) => string[], k1: number, b: number): Promise<Quality> => {
  const [index, indexMs] = await timed(() => {
    const bm25 = new Bm25Index({ k1, b });
    for (const doc of data.corpus) bm25.add(doc.id, tokens(`${doc.title} ${doc.text}`));
    return bm25;
  });
  const runs = new Map<string, string[]>();
  const queryMs: number[] = [];
  for (const q of data.queries) {
    const [hits, ms] = await timed(() => index.search(tokens(q.text), DEPTH));
    runs.set(
      q.id,
      hits.map((h) => h.id),
    );
    queryMs.push(ms);
  }
  return { name, runs, queryMs, indexMs };
};

/** Exact cosine of the IDF-weighted query against every document vector. */
const vectorRun = async (data: SciFact, name: string): Promise<Quality> => {
  const embedder = new LocalEmbedder();
  const weighting = embedder.termWeighting;
  const [prepared, indexMs] = await timed(async () => {
    const vectors = (await embedder.embed(data.corpus.map(documentText), 'document')).map((v) => Float32Array.from(v));
    const weights = idfWeights(contributionOf(data.corpus.map((d) => weighting.termBuckets(documentText(d)))));
    return { vectors, weights };
  });
  const runs = new Map<string, string[]>();
  const queryMs: number[] = [];
  for (const q of data.queries) {
    const [ranked, ms] = await timed(async () => {
      const v = await weighting.embedWeightedQuery(q.text, prepared.weights);
      const dims = v.flatMap((x, j) => (x === 0 ? [] : [j]));
      const scored = prepared.vectors.map((d, i) => {
        let s = 0;
        for (const j of dims) s += d[j]! * v[j]!;
        return { i, s };
      });
      return scored
        .sort((x, y) => y.s - x.s || x.i - y.i)
        .slice(0, DEPTH)
        .map(({ i }) => data.corpus[i]!.id);
    });
    runs.set(q.id, ranked);
    queryMs.push(ms);
  }
  return { name, runs, queryMs, indexMs };
};

/** Creates every abstract through the service (one project); returns the run and the service. */
const serviceRun = async (
  data: SciFact,
  name: string,
): Promise<Quality & { service: SearchServiceUnderTest; projectId: string; chunks: number }> => {
  const service = await startSearchServiceUnderTest();
  const projectId = newProjectId();
  let chunks = 0;
  const [, indexMs] = await timed(async () => {
    for (const doc of data.corpus) {
      const record = await service.documents.create(projectId, { title: doc.title, url: docUrl(doc.id), content: doc.text });
      chunks += record.chunkCount;
    }
  });
  await service.search.search(projectId, 'warm up', 10);
  const runs = new Map<string, string[]>();
  const queryMs: number[] = [];
  for (const q of data.queries) {
    const [{ results }, ms] = await timed(() => service.search.search(projectId, q.text, DEPTH));
    runs.set(
      q.id,
      results.map((r) => r.url.slice(r.url.lastIndexOf('/') + 1)),
    );
    queryMs.push(ms);
  }
  return { name, runs, queryMs, indexMs, service, projectId, chunks };
};

/** CPU time (this process, ms) of a call: what the call costs, less the waiting for a core on a busy machine. */
const cpuTimed = async (run: () => Promise<unknown>): Promise<number> => {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** The same queries again, `size` 10 as a widget asks: ms of the service (wall and CPU) and of its lexical half. */
const latency = async (service: SearchServiceUnderTest, projectId: string, data: SciFact) => {
  const full: number[] = [];
  const cpu: number[] = [];
  const lexical: number[] = [];
  for (const q of data.queries) {
    full.push((await timed(() => service.search.search(projectId, q.text, 10)))[1]);
    cpu.push(await cpuTimed(() => service.search.search(projectId, q.text, 10)));
    lexical.push((await timed(() => service.lexical.search(projectId, q.text, DEPTH)))[1]);
  }
  return { full, cpu, lexical };
};

/**
 * About 100,000 chunks: the corpus's chunks again and again under new document ids, written to
 * the service's lexical index and vector index (in memory: 100,000 vectors of 2,048 floats would
 * log gigabytes) as DocumentService writes them, each distinct text embedded once.
 */
export const largeProject = async (data: SciFact, target = LARGE_CHUNKS) => {
  const service = await startSearchServiceUnderTest((infra) => ({ ...infra, vectors: EmbeddedVectorIndex.inMemory() }));
  const projectId = newProjectId();
  const embedder = new LocalEmbedder();
  const perDoc = data.corpus.map((doc) => documentChunks(doc.title, doc.text));
  const distinct = perDoc.flat().map((c) => c.text);
  const vectorOf = new Map(distinct.map((text, i) => [text, i]));
  const vectors = await embedder.embed(distinct, 'document');
  await service.search.search(projectId, 'warm up', 10); // the lexical index exists from here on
  let chunks = 0;
  let lexicalMs = 0;
  let vectorMs = 0;
  for (let copy = 0; chunks < target; copy++) {
    for (let d = 0; d < data.corpus.length && chunks < target; d++) {
      const doc = data.corpus[d]!;
      const now = new Date().toISOString();
      const record: DocumentRecord = {
        id: pointId('large', copy, doc.id),
        projectId,
        title: doc.title,
        url: docUrl(doc.id),
        path: `/doc/${doc.id}`,
        content: doc.text,
        chunkCount: perDoc[d]!.length,
        createdAt: now,
        updatedAt: now,
      };
      const version = pointId('v', copy, doc.id);
      const points = perDoc[d]!.map(({ chunk, text }) => {
        const payload: ChunkPayload = {
          projectId,
          documentId: record.id,
          version,
          kind: 'chunk',
          chunkIndex: chunk.index,
          headings: chunk.headings,
          title: record.title,
          url: record.url,
          path: record.path,
          content: chunk.text,
        };
        return { id: pointId(record.id, version, chunk.index), vector: vectors[vectorOf.get(text)!]!, payload };
      });
      vectorMs += (await timed(() => service.vectors.upsertChunks(points)))[1];
      lexicalMs += (await timed(() => service.lexical.documentChanged(projectId, record.id, null, { record, version })))[1];
      chunks += points.length;
    }
  }
  return { service, projectId, chunks, lexicalMs, vectorMs };
};

const fixed = (x: number, digits = 4): string => x.toFixed(digits);
const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}x`;

export const runRetrievalBench = async (): Promise<Table[]> => {
  const [data, loadMs] = await timed(() => loadSciFact());
  const plain = await bm25Run(data, '(a) BM25 k1=0.9 b=0.4, no stemming', plainTokens, 0.9, 0.4);
  const lexical = await bm25Run(data, '(b) BM25 k1=1.2 b=0.75, local analyzer', lexicalTokens, 1.2, 0.75);
  const vector = await vectorRun(data, '(c) local embedder + query term IDF');
  const service = await serviceRun(data, '(s) search service: hybrid of (b) and (c)');

  const quality = (m: Quality) => {
    const metrics = evaluateRun(m.runs, data.qrels);
    let recall100 = 0;
    for (const [q, judged] of data.qrels) recall100 += recallAt(m.runs.get(q) ?? [], judged, 100);
    return { ...metrics, recall100: recall100 / data.qrels.size };
  };
  const base = quality(plain);
  const qualityTable: Table = {
    title: `Retrieval on BEIR SciFact test (${data.corpus.length} docs, ${data.queries.length} queries)`,
    columns: ['method', 'nDCG@10', 'vs (a)', 'recall@100', 'vs (a)', 'MRR@10', 'recall@5', 'index docs/s', 'ms/query p50', 'p99'],
    rows: [plain, lexical, vector, service].map((m) => {
      const q = quality(m);
      return [
        m.name,
        fixed(q.ndcgAt10),
        ratio(q.ndcgAt10, base.ndcgAt10),
        fixed(q.recall100),
        ratio(q.recall100, base.recall100),
        fixed(q.mrrAt10),
        fixed(q.recallAt5),
        Math.round(data.corpus.length / (m.indexMs / 1000)),
        fixed(percentile(m.queryMs, 50), 2),
        fixed(percentile(m.queryMs, 99), 2),
      ];
    }),
    notes: [
      `data: ${scifactDir()} (loaded in ${Math.round(loadMs)} ms); published BM25 nDCG@10 on this split: 0.665 (BEIR paper)`,
      '(s) indexes through DocumentService.create one document at a time (chunking, embedding, vector index, term statistics, lexical index, embedded stores on /dev/shm); (a)-(c) index in memory only',
      '(s) queries SearchService.search with size 100 (recall@100); its latency at size 10 is in the next table',
    ],
  };

  const small = await latency(service.service, service.projectId, data);
  // A restart: a new instance's lexical index is rebuilt from the documents on its first search.
  const store = service.service.infra.documents;
  const restarted = new LexicalIndex(new DocumentRepository(store), new KnowledgeRevisionRepository(store), systemClock, loadConfig());
  const [, rebuildMs] = await timed(() => restarted.search(service.projectId, 'rebuild', 1));
  await service.service.close();
  const measureLarge = async (target: number) => {
    const project = await largeProject(data, target);
    await latency(project.service, project.projectId, data); // warm up
    const samples = await latency(project.service, project.projectId, data);
    await project.service.close();
    return { ...project, samples };
  };
  const fiveK = await measureLarge(SMALL_CHUNKS);
  const large = await measureLarge(LARGE_CHUNKS);
  const big = large.samples;

  const latencyRow = (label: string, chunks: number, samples: { full: number[]; cpu: number[]; lexical: number[] }) => [
    label,
    chunks,
    fixed(percentile(samples.full, 50), 2),
    fixed(percentile(samples.full, 99), 2),
    fixed(percentile(samples.cpu, 50), 2),
    fixed(percentile(samples.cpu, 99), 2),
    fixed(percentile(samples.lexical, 50), 2),
    fixed(percentile(samples.lexical, 99), 2),
    ratio(percentile(samples.full, 50), percentile(samples.lexical, 50)),
  ];
  const latencyTable: Table = {
    title: 'Search service latency (SearchService.search, size 10, the 300 SciFact claims, ms)',
    columns: ['project', 'chunks', 'search p50', 'p99', 'CPU p50', 'CPU p99', 'BM25 half p50', 'p99', 'search/BM25 p50'],
    rows: [
      latencyRow('SciFact, first chunks', fiveK.chunks, fiveK.samples),
      latencyRow('SciFact', service.chunks, small),
      latencyRow(`SciFact x${Math.ceil(large.chunks / service.chunks)}`, large.chunks, big),
    ],
    notes: [
      `indexing: SciFact through DocumentService ${Math.round(data.corpus.length / (service.indexMs / 1000))} docs/s (${Math.round(service.chunks / (service.indexMs / 1000))} chunks/s); ` +
        `the large project: lexical index ${Math.round(large.chunks / (large.lexicalMs / 1000))} chunks/s (with the revision write), in-memory vector index ${Math.round(large.chunks / (large.vectorMs / 1000))} chunks/s (embedding excluded); ` +
        `lexical index rebuilt from the documents after a restart: ${Math.round(data.corpus.length / (rebuildMs / 1000))} docs/s`,
      'SciFact: the project indexed through DocumentService above; the first chunks and the x10 project are written to the lexical and vector indexes directly (vectors in memory only, no term statistics: the query is embedded unweighted), x10 repeating the corpus under new document ids',
      "with the local embedder the vector index re-scores the chunks of BM25's 100 best documents by id instead of scanning every chunk",
      "a 2-core machine shared with other jobs: wall-clock latencies are noisy, p99 most of all; CPU: the process's CPU time per search (all its threads, GC included)",
    ],
  };
  return [qualityTable, latencyTable];
};

export const formatTable = (table: Table): string => {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [
    table.title,
    line(table.columns),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
    ...table.notes.map((n) => `  ${n}`),
  ].join('\n');
};

export const printRetrievalBench = async (): Promise<void> => {
  for (const table of await runRetrievalBench()) console.log(`${formatTable(table)}\n`);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await printRetrievalBench();
}
