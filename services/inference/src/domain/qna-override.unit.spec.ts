import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isGrounded, overridingQna } from './qna-override';

const qna = (score: number, answer = `answer ${score}`) => ({ id: randomUUID(), question: 'q', answer, score });
const on = { enabled: true, minScore: 0.9 };

describe('overridingQna', () => {
  it('takes the best entry at or above the score', () => {
    const best = qna(0.95, 'best');
    expect(overridingQna({ qnas: [qna(0.91), best], chunks: [] }, on)).toBe(best);
    expect(overridingQna({ qnas: [qna(0.9)], chunks: [] }, on)?.score).toBe(0.9);
  });

  it('leaves the reply to the model below the score, without entries, or when off', () => {
    expect(overridingQna({ qnas: [qna(0.89)], chunks: [] }, on)).toBeNull();
    expect(overridingQna({ qnas: [], chunks: [] }, on)).toBeNull();
    expect(overridingQna({ qnas: [qna(1)], chunks: [] }, { enabled: false, minScore: 0.9 })).toBeNull();
  });
});

describe('isGrounded', () => {
  it('is true with any entry or chunk', () => {
    expect(isGrounded({ qnas: [], chunks: [] })).toBe(false);
    expect(isGrounded({ qnas: [qna(0.2)], chunks: [] })).toBe(true);
  });
});
