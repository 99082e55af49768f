import { AppError } from '@palaver/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAiServer, fakeEmbedding } from '../testing/fake-openai.server';
import { OpenAiEmbedder } from './openai.embedder';

describe('OpenAiEmbedder against an OpenAI-compatible server', () => {
  let fake: FakeOpenAiServer;
  const embedder = (options: { batchSize?: number; requestDimensions?: boolean; dimensions?: number } = {}) =>
    new OpenAiEmbedder({
      baseURL: fake.baseURL,
      apiKey: 'sk-embed',
      model: 'embed-small',
      dimensions: options.dimensions ?? 16,
      batchSize: options.batchSize ?? 3,
      requestDimensions: options.requestDimensions ?? true,
      maxRetries: 0,
    });

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKey: 'sk-embed', defaultDimensions: 8 });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });

  it('embeds in batches and returns the vectors in input order', async () => {
    const texts = ['opening hours', 'returns policy', 'shipping to Canada', 'gift cards', 'contact us', 'careers', 'press'];
    const vectors = await embedder().embed(texts, 'document');
    expect(vectors).toHaveLength(7);
    for (const [i, vector] of vectors.entries()) expect(vector).toEqual(fakeEmbedding(texts[i]!, 16));
    const calls = fake.requestsTo('/v1/embeddings');
    expect(calls.map((c) => c.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)]);
    expect(calls[0]?.body).toMatchObject({ model: 'embed-small', dimensions: 16, encoding_format: 'float' });
    expect(calls[0]?.authorization).toBe('Bearer sk-embed');
  });

  it('sends no request for no input', async () => {
    expect(await embedder().embed([], 'query')).toEqual([]);
    expect(fake.requestsTo('/v1/embeddings')).toHaveLength(0);
  });

  it('leaves the dimensions out when told to, and rejects vectors of the wrong size', async () => {
    const err = await embedder({ requestDimensions: false, dimensions: 16 })
      .embed(['hello'], 'query')
      .catch((e: unknown) => e);
    expect(fake.requestsTo('/v1/embeddings')[0]?.body).not.toHaveProperty('dimensions');
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'BAD_GATEWAY', details: { service: 'embeddings' } });
    expect((err as AppError).message).toContain('8 dimensions');
    expect(await embedder({ requestDimensions: false, dimensions: 8 }).embed(['hello'], 'query')).toEqual([fakeEmbedding('hello', 8)]);
  });

  it('fails with BAD_GATEWAY when the endpoint answers an error', async () => {
    fake.scriptEmbeddings({ kind: 'vectors' }, { kind: 'http-error', status: 500, message: 'embedding model down' });
    const err = await embedder({ batchSize: 1 })
      .embed(['a', 'b'], 'document')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BAD_GATEWAY', details: { service: 'embeddings', status: 500 } });
    expect((err as AppError).message).toContain('embedding model down');
  });
});
