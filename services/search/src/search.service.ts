import type { Retrieval, SearchResult } from '@palaver/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { QNA_FIELDS, retrievedChunksOf, retrievedQnasOf, searchResultsOf } from './domain/knowledge-payload';
import { KnowledgeVectors } from './knowledge.vectors';
import { TermStatsService } from './term-stats.service';

/** How many chunk hits one search reads at most while looking for `size` distinct documents. */
const MAX_CHUNK_HITS = 1000;

/**
 * Semantic search: the query's embedding against the project's chunks (cosine similarity),
 * one result per document (its best chunk), best first. With the local embedder the query's
 * terms are weighted by their IDF over the project's chunks (TermStatsService). Pure vector
 * search: BM25 hybrids were measured on BEIR SciFact and did not beat the better of their parts
 * clearly (bench/).
 */
@Injectable()
export class SearchService {
  constructor(
    @Inject(KnowledgeVectors) private readonly vectors: KnowledgeVectors,
    @Inject(TermStatsService) private readonly termStats: TermStatsService,
  ) {}

  async search(projectId: string, q: string, size: number): Promise<{ results: SearchResult[] }> {
    const vector = await this.chunkQueryVector(projectId, q);
    // Several chunks of one document may come first: read more hits until `size` documents are found.
    let limit = Math.min(size * 4, MAX_CHUNK_HITS);
    for (;;) {
      const hits = await this.vectors.searchChunks(projectId, vector, limit);
      const results = searchResultsOf(hits, size);
      const exhausted = hits.length < limit || (hits.at(-1)?.score ?? 0) <= 0 || limit >= MAX_CHUNK_HITS;
      if (results.length >= size || exhausted) return { results };
      limit = Math.min(limit * 4, MAX_CHUNK_HITS);
    }
  }

  /**
   * Context for a reply: the best Q&A entries and document chunks (several per document
   * allowed). Q&A entries are matched with the unweighted query: they are few, matched by
   * paraphrase, and the responder's Q&A threshold is set on plain cosine.
   */
  async retrieve(projectId: string, query: string, qnaLimit: number, chunkLimit: number): Promise<Retrieval> {
    if (qnaLimit === 0 && chunkLimit === 0) return { qnas: [], chunks: [] };
    const weighted = chunkLimit > 0 ? await this.termStats.chunkQueryVector(projectId, query) : null;
    const plain = qnaLimit > 0 || !weighted ? await this.vectors.embedQuery(query) : null;
    const [qnaHits, chunkHits] = await Promise.all([
      plain ? this.vectors.searchQnas(projectId, plain, qnaLimit * QNA_FIELDS.length) : [],
      this.vectors.searchChunks(projectId, weighted ?? plain!, chunkLimit * 2),
    ]);
    return {
      qnas: retrievedQnasOf(qnaHits, qnaLimit),
      chunks: retrievedChunksOf(chunkHits, chunkLimit),
    };
  }

  private async chunkQueryVector(projectId: string, text: string): Promise<number[]> {
    return (await this.termStats.chunkQueryVector(projectId, text)) ?? this.vectors.embedQuery(text);
  }
}
