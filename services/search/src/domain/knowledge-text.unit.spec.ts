import { describe, expect, it } from 'vitest';
import { chunkEmbeddingText, defaultPath, qnaEmbeddingText } from './knowledge-text';
import { pointId } from './point-id';

describe('defaultPath', () => {
  it("is the URL's pathname", () => {
    expect(defaultPath('https://shop.example.com/help/shipping?x=1#top')).toBe('/help/shipping');
    expect(defaultPath('https://shop.example.com')).toBe('/');
  });
});

describe('chunkEmbeddingText', () => {
  it('puts the title and heading path before the chunk text', () => {
    expect(chunkEmbeddingText('Help', ['Shipping', 'Costs'], 'Free above 50 EUR.')).toBe('Help\nShipping > Costs\nFree above 50 EUR.');
    expect(chunkEmbeddingText('Help', [], 'Text.')).toBe('Help\nText.');
  });
});

describe('qnaEmbeddingText', () => {
  it('is the question alone, or the question followed by the answer', () => {
    expect(qnaEmbeddingText('question', 'Open?', 'Yes.')).toBe('Open?');
    expect(qnaEmbeddingText('question-answer', 'Open?', 'Yes.')).toBe('Open?\nYes.');
  });
});

describe('pointId', () => {
  it('is a stable uuid of its parts, different for different parts', () => {
    const id = pointId('doc', 'v1', 0);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pointId('doc', 'v1', 0)).toBe(id);
    expect(pointId('doc', 'v1', 1)).not.toBe(id);
    expect(pointId('doc', 'v2', 0)).not.toBe(id);
    expect(pointId('do', 'cv1', 0)).not.toBe(id);
  });
});
