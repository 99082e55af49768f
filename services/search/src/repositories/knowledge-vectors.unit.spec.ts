import { describe, expect, it } from 'vitest';
import { knowledgeCollection } from './knowledge-vectors';

describe('the knowledge collection name', () => {
  it('follows the embedding model and dimensions, so a new embedder starts a new collection', () => {
    expect(knowledgeCollection({ name: 'openai:text-embedding-3-small:1536' })).toBe('knowledge__openai_text-embedding-3-small_1536');
    expect(knowledgeCollection({ name: 'openai:text-embedding-3-small:512' })).not.toBe(
      knowledgeCollection({ name: 'openai:text-embedding-3-small:1536' }),
    );
  });

  it('stays `knowledge` for the built-in local embedder (existing data folders)', () => {
    expect(knowledgeCollection({ name: 'local-hash-v1-256' })).toBe('knowledge');
  });
});
