import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from './fake-openai.server';

describe('FakeOpenAiServer', () => {
  let fake: FakeOpenAiServer;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKey: 'sk-right' });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('answers a non-streaming chat completion with the echo and its usage', async () => {
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-right', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Ping now' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: Ping now');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 4, total_tokens: 6 });
  });

  it('rejects a wrong API key with 401', async () => {
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 401,
    });
  });

  it('answers base64 embeddings, which the SDK decodes', async () => {
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-right', maxRetries: 0 });
    const response = await client.embeddings.create({ model: 'e', input: ['a', 'b'], dimensions: 4 });
    expect(response.data.map((d) => d.embedding.length)).toEqual([4, 4]);
    const norm = Math.hypot(...response.data[0]!.embedding);
    expect(norm).toBeCloseTo(1, 5);
  });
});
