import type { ProductFields, RetrievedChunk, RetrievedQna, SearchResult } from '@palaver/contracts';

export const PRODUCT_FIELDS = ['productId', 'price', 'currency', 'availability', 'vendor', 'productType', 'imageUrl'] as const;

/** What a document chunk's vector point carries: enough to answer a search without reading the document. */
export interface ChunkPayload extends ProductFields {
  projectId: string;
  documentId: string;
  /** The indexing run that wrote the chunk; an update writes a new version, then drops the old one. */
  version: string;
  kind: 'chunk';
  chunkIndex: number;
  headings: string[];
  title: string;
  url: string;
  path: string;
  content: string;
}

/**
 * A Q&A entry has two points: its question alone, which a question asked in the same or other
 * words meets closely, and question with answer, which a question about the answer's content
 * meets. Its score is the better of the two.
 */
export interface QnaPayload {
  projectId: string;
  qnaId: string;
  kind: 'qna';
  field: QnaField;
  question: string;
  answer: string;
}

export const QNA_FIELDS = ['question', 'question-answer'] as const;
export type QnaField = (typeof QNA_FIELDS)[number];

export interface Hit<P> {
  /** The vector point's id (set by searches; absent in hand-made hits). */
  id?: string;
  score: number;
  payload: P;
}

/** The product fields that are set, and nothing else. */
export const productFieldsOf = (source: ProductFields): ProductFields => {
  const out: Record<string, unknown> = {};
  for (const key of PRODUCT_FIELDS) if (source[key] !== undefined && source[key] !== null) out[key] = source[key];
  return out as ProductFields;
};

/**
 * Search results from chunk hits (best first): one result per document, its best chunk, and
 * only hits with a positive score (a cosine of zero or less shares nothing with the query).
 */
export const searchResultsOf = (hits: ReadonlyArray<Hit<ChunkPayload>>, size: number): SearchResult[] => {
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const { score, payload } of [...hits].sort((a, b) => b.score - a.score)) {
    if (results.length >= size) break;
    if (score <= 0 || seen.has(payload.documentId)) continue;
    seen.add(payload.documentId);
    results.push({
      score,
      title: payload.title,
      content: payload.content,
      url: payload.url,
      path: payload.path,
      ...productFieldsOf(payload),
    });
  }
  return results;
};

/**
 * Context chunks for a reply, in the order of `hits` (the search's ranking): several chunks of
 * one document may help, but never the same chunk twice.
 */
export const retrievedChunksOf = (hits: ReadonlyArray<Hit<ChunkPayload>>, limit: number): RetrievedChunk[] => {
  const seen = new Set<string>();
  const out: RetrievedChunk[] = [];
  for (const { score, payload } of hits) {
    if (out.length >= limit) break;
    const key = `${payload.documentId}:${payload.chunkIndex}`;
    if (score <= 0 || seen.has(key)) continue;
    seen.add(key);
    out.push({
      documentId: payload.documentId,
      title: payload.title,
      url: payload.url,
      content: payload.content,
      score,
      ...(payload.productId !== undefined && payload.productId !== null ? { productId: payload.productId } : {}),
      ...(payload.headings.length > 0 ? { headings: payload.headings } : {}),
    });
  }
  return out;
};

/** Q&A entries for a reply: each entry once, with the better score of its two points, best first. */
export const retrievedQnasOf = (hits: ReadonlyArray<Hit<QnaPayload>>, limit: number): RetrievedQna[] => {
  const seen = new Set<string>();
  const out: RetrievedQna[] = [];
  for (const { score, payload } of [...hits].sort((a, b) => b.score - a.score)) {
    if (out.length >= limit) break;
    if (score <= 0 || seen.has(payload.qnaId)) continue;
    seen.add(payload.qnaId);
    out.push({ id: payload.qnaId, question: payload.question, answer: payload.answer, score });
  }
  return out;
};
