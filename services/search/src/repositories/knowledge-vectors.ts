import { Inject, Injectable } from '@nestjs/common';
import { type Embedder, Ports, type VectorIndex, type VectorPoint } from '@palaver/platform';
import type { ChunkPayload, Hit, QnaPayload } from '../domain/knowledge-payload';

/** One vector collection holds a project's document chunks and Q&A entries, told apart by `kind`. */
export const KNOWLEDGE_COLLECTION = 'knowledge';

/**
 * The collection of an embedder's vectors: named after its model and dimensions (`openai:m:1536`
 * gives `knowledge__openai_m_1536`), so that changing the embedding model or its dimensions starts
 * a new collection instead of mixing incompatible vectors; the old one stays until dropped. The
 * built-in local embedder keeps the historical `knowledge` name, so existing data folders stay valid.
 */
export const knowledgeCollection = (embedder: Pick<Embedder, 'name'>): string =>
  embedder.name.startsWith('local-') ? KNOWLEDGE_COLLECTION : `${KNOWLEDGE_COLLECTION}__${embedder.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
const EMBED_BATCH = 64;
const UPSERT_BATCH = 128;

/** The knowledge base's side of the vector index and the embedder. */
@Injectable()
export class KnowledgeVectors {
  private ready: Promise<void> | null = null;
  readonly collection: string;

  constructor(
    @Inject(Ports.vectors) private readonly vectors: VectorIndex,
    @Inject(Ports.embedder) private readonly embedder: Embedder,
  ) {
    this.collection = knowledgeCollection(embedder);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      out.push(...(await this.embedder.embed(texts.slice(i, i + EMBED_BATCH), 'document')));
    }
    return out;
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedder.embed([text], 'query');
    if (!vector) throw new Error('the embedder returned no vector for the query');
    return vector;
  }

  /** Query embeddings of several short texts in one embedder call (analytics groups questions with them). */
  async embedQueries(texts: string[]): Promise<number[][]> {
    const vectors = await this.embedder.embed(texts, 'query');
    if (vectors.length !== texts.length) throw new Error('the embedder returned a vector count unlike the texts');
    return vectors;
  }

  async upsertChunks(points: Array<{ id: string; vector: number[]; payload: ChunkPayload }>): Promise<void> {
    await this.upsert(points);
  }

  async upsertQna(points: Array<{ id: string; vector: number[]; payload: QnaPayload }>): Promise<void> {
    await this.upsert(points);
  }

  /** Every chunk of the document, or only those written by one indexing run. */
  async deleteDocumentChunks(projectId: string, documentId: string, version?: string): Promise<void> {
    await this.ensureReady();
    await this.vectors.deleteWhere(this.collection, {
      projectId,
      kind: 'chunk',
      documentId,
      ...(version === undefined ? {} : { version }),
    });
  }

  async deleteQna(projectId: string, qnaId: string): Promise<void> {
    await this.ensureReady();
    await this.vectors.deleteWhere(this.collection, { projectId, kind: 'qna', qnaId });
  }

  /** The best chunks, or only the chunks `ids` (by point id) when given. */
  async searchChunks(projectId: string, vector: number[], limit: number, ids?: readonly string[]): Promise<Array<Hit<ChunkPayload>>> {
    return this.search<ChunkPayload>(projectId, 'chunk', vector, limit, ids);
  }

  /** True when the embedder's vectors are built from the text's own words (the local embedder). */
  get lexicalEmbedder(): boolean {
    return this.embedder.termWeighting !== undefined;
  }

  async searchQnas(projectId: string, vector: number[], limit: number): Promise<Array<Hit<QnaPayload>>> {
    return this.search<QnaPayload>(projectId, 'qna', vector, limit);
  }

  private async search<P>(
    projectId: string,
    kind: string,
    vector: number[],
    limit: number,
    ids?: readonly string[],
  ): Promise<Array<Hit<P>>> {
    if (limit <= 0 || ids?.length === 0) return [];
    await this.ensureReady();
    const hits = await this.vectors.search(this.collection, vector, {
      limit,
      filter: { projectId, kind },
      ...(ids ? { ids } : {}),
    });
    return hits.map((hit) => ({ id: hit.id, score: hit.score, payload: hit.payload as P }));
  }

  private async upsert(points: Array<{ id: string; vector: number[]; payload: ChunkPayload | QnaPayload }>): Promise<void> {
    await this.ensureReady();
    for (let i = 0; i < points.length; i += UPSERT_BATCH) {
      const batch: VectorPoint[] = points
        .slice(i, i + UPSERT_BATCH)
        .map((p) => ({ id: p.id, vector: p.vector, payload: { ...p.payload } }));
      await this.vectors.upsert(this.collection, batch);
    }
  }

  private ensureReady(): Promise<void> {
    if (!this.ready) {
      this.ready = this.vectors.ensureCollection(this.collection, this.embedder.dimensions).catch((err: unknown) => {
        this.ready = null;
        throw err;
      });
    }
    return this.ready;
  }
}
