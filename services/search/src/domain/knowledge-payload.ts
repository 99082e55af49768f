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
 * The hits worth showing, in the order given: a positive score only (a cosine of zero or less
 * shares nothing with the query), each key once (its first, so its best when sorted), at most `limit`.
 */
const distinctHits = <P>(hits: ReadonlyArray<Hit<P>>, keyOf: (payload: P) => string, limit: number): Hit<P>[] => {
  const seen = new Set<string>();
  const out: Hit<P>[] = [];
  for (const hit of hits) {
    if (out.length >= limit) break;
    const key = keyOf(hit.payload);
    if (hit.score <= 0 || seen.has(key)) continue;
    seen.add(key);
    out.push(hit);
  }
  return out;
};

const bestFirst = <P>(hits: ReadonlyArray<Hit<P>>): Hit<P>[] => [...hits].sort((a, b) => b.score - a.score);

/** Search results from chunk hits (best first): one result per document, its best chunk. */
export const searchResultsOf = (hits: ReadonlyArray<Hit<ChunkPayload>>, size: number): SearchResult[] =>
  distinctHits(bestFirst(hits), (payload) => payload.documentId, size).map(({ score, payload }) => ({
    score,
    title: payload.title,
    content: payload.content,
    url: payload.url,
    path: payload.path,
    ...productFieldsOf(payload),
  }));

/**
 * Context chunks for a reply, in the order of `hits` (the search's ranking): several chunks of
 * one document may help, but never the same chunk twice.
 */
export const retrievedChunksOf = (hits: ReadonlyArray<Hit<ChunkPayload>>, limit: number): RetrievedChunk[] =>
  distinctHits(hits, (payload) => `${payload.documentId}:${payload.chunkIndex}`, limit).map(({ score, payload }) => ({
    documentId: payload.documentId,
    title: payload.title,
    url: payload.url,
    content: payload.content,
    score,
    ...(payload.productId !== undefined && payload.productId !== null ? { productId: payload.productId } : {}),
    ...(payload.headings.length > 0 ? { headings: payload.headings } : {}),
  }));

/** Q&A entries for a reply: each entry once, with the better score of its two points, best first. */
export const retrievedQnasOf = (hits: ReadonlyArray<Hit<QnaPayload>>, limit: number): RetrievedQna[] =>
  distinctHits(bestFirst(hits), (payload) => payload.qnaId, limit).map(({ score, payload }) => ({
    id: payload.qnaId,
    question: payload.question,
    answer: payload.answer,
    score,
  }));
