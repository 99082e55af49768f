import { describe, expect, it } from 'vitest';
import {
  type ChunkPayload,
  type Hit,
  productFieldsOf,
  type QnaPayload,
  retrievedChunksOf,
  retrievedQnasOf,
  searchResultsOf,
} from './knowledge-payload';

const hit = (score: number, documentId: string, chunkIndex: number, extra: Partial<ChunkPayload> = {}): Hit<ChunkPayload> => ({
  score,
  payload: {
    projectId: 'p',
    documentId,
    version: 'v1',
    kind: 'chunk',
    chunkIndex,
    headings: [],
    title: `title ${documentId}`,
    url: `https://x.test/${documentId}`,
    path: `/${documentId}`,
    content: `${documentId} chunk ${chunkIndex}`,
    ...extra,
  },
});

describe('searchResultsOf', () => {
  it('keeps each document once (its best chunk), best first, at most `size`', () => {
    const hits = [hit(0.5, 'a', 1), hit(0.9, 'a', 0), hit(0.7, 'b', 3), hit(0.6, 'c', 0)];
    expect(searchResultsOf(hits, 10).map((r) => [r.content, r.score])).toEqual([
      ['a chunk 0', 0.9],
      ['b chunk 3', 0.7],
      ['c chunk 0', 0.6],
    ]);
    expect(searchResultsOf(hits, 1)).toHaveLength(1);
  });

  it('drops hits that share nothing with the query (score of zero or less)', () => {
    expect(searchResultsOf([hit(0, 'a', 0), hit(-0.1, 'b', 0)], 10)).toEqual([]);
  });

  it('copies the product fields that are set, and only those', () => {
    const [r] = searchResultsOf([hit(0.5, 'a', 0, { price: 0, currency: 'EUR' })], 1);
    expect(r).toEqual({
      score: 0.5,
      title: 'title a',
      content: 'a chunk 0',
      url: 'https://x.test/a',
      path: '/a',
      price: 0,
      currency: 'EUR',
    });
    expect(productFieldsOf({ vendor: undefined, productId: 'p1' })).toEqual({ productId: 'p1' });
  });
});

describe('retrievedChunksOf', () => {
  it('allows several chunks of a document but not the same chunk twice', () => {
    const hits = [hit(0.9, 'a', 0), hit(0.8, 'a', 1), hit(0.85, 'a', 0, { version: 'v2' }), hit(0.1, 'b', 0)];
    expect(retrievedChunksOf(hits, 10).map((c) => [c.documentId, c.content])).toEqual([
      ['a', 'a chunk 0'],
      ['a', 'a chunk 1'],
      ['b', 'b chunk 0'],
    ]);
    expect(retrievedChunksOf(hits, 1)).toHaveLength(1);
  });
});

describe('retrievedQnasOf', () => {
  const qnaHit = (score: number, qnaId: string, field: QnaPayload['field']): Hit<QnaPayload> => ({
    score,
    payload: { projectId: 'p', qnaId, kind: 'qna', field, question: `q ${qnaId}`, answer: `a ${qnaId}` },
  });

  it('keeps each entry once with the better score of its two points, best first, at most `limit`', () => {
    const hits = [
      qnaHit(0.4, 'a', 'question-answer'),
      qnaHit(0.9, 'a', 'question'),
      qnaHit(0.6, 'b', 'question-answer'),
      qnaHit(0.5, 'b', 'question'),
    ];
    expect(retrievedQnasOf(hits, 5)).toEqual([
      { id: 'a', question: 'q a', answer: 'a a', score: 0.9 },
      { id: 'b', question: 'q b', answer: 'a b', score: 0.6 },
    ]);
    expect(retrievedQnasOf(hits, 1).map((q) => q.id)).toEqual(['a']);
    expect(retrievedQnasOf([qnaHit(0, 'c', 'question')], 5)).toEqual([]);
  });
});
