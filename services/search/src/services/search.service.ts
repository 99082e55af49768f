import { Inject, Injectable } from '@nestjs/common';
import type { Retrieval, SearchResult } from '@palaver/contracts';
import { type ChunkPayload, type Hit, QNA_FIELDS, retrievedChunksOf, retrievedQnasOf, searchResultsOf } from '../domain/knowledge-payload';
import { type Fused, fuseScores } from '../domain/score-fusion';
import { DocumentRepository } from '../repositories/document.repository';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { LexicalIndex } from '../repositories/lexical-index';
import { TermStatsService } from './term-stats.service';

/** Candidates each retriever proposes at least (documents for BM25, chunks for the vector index). */
const HYBRID_CANDIDATES = 100;
/** The vector index re-scores at most this many chunks of BM25's documents. */
const MAX_RESCORED_CHUNKS = 1_000;

/**
 * Hybrid search over a project's chunks: a BM25 index of its documents (LexicalIndex) and the
 * vector index of their chunks each propose candidates, every candidate chunk gets both scores
 * (BM25's is its document's), and the two are fused (score-fusion.ts).
 *
 * With an embedding model the vector index searches the whole project (it finds chunks that
 * share no word with the query) and BM25 scores what it found. With the local embedder, whose
 * vectors are made of the same words, the vector index only re-scores the chunks of BM25's documents: a
 * lookup instead of a scan of every chunk, which keeps a search fast on a large project. It
 * still scans when BM25 finds too few (a misspelt word, met by the embedder's character n-grams).
 */
@Injectable()
export class SearchService {
  constructor(
    @Inject(KnowledgeVectors) private readonly vectors: KnowledgeVectors,
    @Inject(TermStatsService) private readonly termStats: TermStatsService,
    @Inject(LexicalIndex) private readonly lexical: LexicalIndex,
    @Inject(DocumentRepository) private readonly documents: DocumentRepository,
  ) {}

  /** The best chunk of each of the `size` best documents, best first; `score` is the fused score. */
  async search(projectId: string, q: string, size: number): Promise<{ results: SearchResult[] }> {
    const ranked = await this.rankChunks(projectId, q, Math.max(HYBRID_CANDIDATES, size * 4), size);
    return { results: searchResultsOf(ranked.map(asFusedHit), size) };
  }

  /**
   * Context for a reply: the best Q&A entries and document chunks (several per document
   * allowed). Chunks come in fused order with their cosine similarity as `score` (an absolute
   * measure, which the local responder's thresholds are set on). Q&A entries are matched with
   * the unweighted query: they are few, matched by paraphrase, and the responder's Q&A threshold
   * is set on plain cosine.
   */
  async retrieve(projectId: string, query: string, qnaLimit: number, chunkLimit: number): Promise<Retrieval> {
    if (qnaLimit === 0 && chunkLimit === 0) return { qnas: [], chunks: [] };
    // Chunks are ranked with the plain vector too while the project has no term statistics: embedded once.
    let plain: Promise<number[]> | undefined;
    const plainVector = () => (plain ??= this.vectors.embedQuery(query));
    const [qnaHits, ranked] = await Promise.all([
      qnaLimit > 0 ? plainVector().then((vector) => this.vectors.searchQnas(projectId, vector, qnaLimit * QNA_FIELDS.length)) : [],
      chunkLimit > 0 ? this.rankChunks(projectId, query, HYBRID_CANDIDATES, chunkLimit, plainVector) : [],
    ]);
    return {
      qnas: retrievedQnasOf(qnaHits, qnaLimit),
      chunks: retrievedChunksOf(
        ranked.map((c) => ({ score: c.similarity, payload: c.payload })),
        chunkLimit,
      ),
    };
  }

  /** Candidates of both retrievers with both scores, in fused order; `wanted`: results the caller needs. */
  private async rankChunks(
    projectId: string,
    q: string,
    depth: number,
    wanted: number,
    plainVector = () => this.vectors.embedQuery(q),
  ): Promise<Array<Fused<ChunkPayload>>> {
    const [lexicalHits, vector] = await Promise.all([
      this.lexical.search(projectId, q, depth),
      this.termStats.chunkQueryVector(projectId, q).then((weighted) => weighted ?? plainVector()),
    ]);
    const documentScore = new Map(lexicalHits.map((h) => [h.documentId, h.score]));
    const candidateIds = lexicalHits.flatMap((h) => h.chunkIds).slice(0, MAX_RESCORED_CHUNKS);
    const scanAll = !this.vectors.lexicalEmbedder || lexicalHits.length < wanted;
    const [rescored, found] = await Promise.all([
      this.vectors.searchChunks(projectId, vector, candidateIds.length, candidateIds),
      scanAll ? this.vectors.searchChunks(projectId, vector, depth) : [],
    ]);
    const vectorHits = new Map<string, Hit<ChunkPayload>>();
    for (const hit of [...rescored, ...found]) if (hit.id !== undefined) vectorHits.set(hit.id, hit);
    // Only chunks of a live document version: not those of an upload or update that was killed.
    const live = await this.liveVersions(projectId, [...vectorHits.values()]);
    for (const [id, hit] of vectorHits) if (live.get(hit.payload.documentId) !== hit.payload.version) vectorHits.delete(id);
    const unscored = [...new Set([...vectorHits.values()].map((h) => h.payload.documentId))].filter((id) => !documentScore.has(id));
    if (unscored.length > 0) for (const [id, score] of await this.lexical.scoreOf(projectId, q, unscored)) documentScore.set(id, score);
    // A chunk BM25 proposed but the vector index no longer holds is being replaced: left out.
    return fuseScores(
      [...vectorHits].map(([id, hit]) => ({
        id,
        payload: hit.payload,
        lexical: documentScore.get(hit.payload.documentId) ?? 0,
        similarity: hit.score,
      })),
    );
  }

  /**
   * The live version of each hit's document: as the lexical index holds it, and from the
   * documents themselves for a hit of another version (killed, or newer than the index knows).
   */
  private async liveVersions(projectId: string, hits: ReadonlyArray<Hit<ChunkPayload>>): Promise<Map<string, string>> {
    const live = await this.lexical.versions(projectId, [...new Set(hits.map((h) => h.payload.documentId))]);
    const doubtful = [
      ...new Set(hits.filter((h) => live.get(h.payload.documentId) !== h.payload.version).map((h) => h.payload.documentId)),
    ];
    if (doubtful.length > 0) {
      const stored = await this.documents.liveVersions(projectId, doubtful);
      for (const id of doubtful) {
        const version = stored.get(id);
        if (version === undefined) live.delete(id);
        else live.set(id, version);
      }
    }
    return live;
  }
}

const asFusedHit = (c: Fused<ChunkPayload>): Hit<ChunkPayload> => ({ id: c.id, score: c.score, payload: c.payload });
