import { AppError, type ChatMessage, type Usage } from '@palaver/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../testing/fake-openai.server';
import type { ChatRequest, ModelChunk } from './chat-model.port';
import { OpenAiChatModel } from './openai.chat-model';

const messages: ChatMessage[] = [
  { role: 'system', content: 'You are the shop assistant.' },
  { role: 'user', content: 'Do you ship to Canada today?' },
];
const request = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: null,
  messages,
  grounding: { qnas: [], chunks: [] },
  ...overrides,
});

const collect = async (stream: AsyncIterable<ModelChunk>) => {
  const deltas: string[] = [];
  let finish: Extract<ModelChunk, { type: 'finish' }> | null = null;
  try {
    for await (const chunk of stream) {
      if (chunk.type === 'delta') deltas.push(chunk.delta);
      else if (chunk.type === 'finish') finish = chunk;
    }
    return { deltas, finish, error: null };
  } catch (error) {
    return { deltas, finish, error };
  }
};

describe('OpenAiChatModel against an OpenAI-compatible server', () => {
  let fake: FakeOpenAiServer;
  const model = (options: { timeoutMs?: number; maxRetries?: number } = {}) =>
    new OpenAiChatModel({
      baseURL: fake.baseURL,
      apiKey: 'sk-test',
      defaultModel: 'default-model',
      timeoutMs: options.timeoutMs ?? 5_000,
      maxRetries: options.maxRetries ?? 0,
    });

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKey: 'sk-test' });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });

  it('streams the text in several deltas and maps the reported usage', async () => {
    fake.scriptChat({ kind: 'reply', text: 'Yes, we ship to Canada within five days.', reasoningTokens: 4, cachedTokens: 3 });
    const { deltas, finish, error } = await collect(model().stream(request()));
    expect(error).toBeNull();
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('Yes, we ship to Canada within five days.');
    // The fake counts with the project tokenizer: prompt 6 + 7 = 13, answer 10.
    const expected: Usage = { inputTokens: 13, outputTokens: 10, totalTokens: 23, reasoningTokens: 4, cachedInputTokens: 3 };
    expect(finish).toEqual({ type: 'finish', finishReason: 'stop', usage: expected });
  });

  it('asks for streamed usage, sends the prompt and uses the default model unless the request names one', async () => {
    await collect(model().stream(request()));
    await collect(model().stream(request({ model: 'assistant-model' })));
    const [first, second] = fake.requestsTo('/v1/chat/completions');
    expect(first?.authorization).toBe('Bearer sk-test');
    expect(first?.body).toMatchObject({ model: 'default-model', stream: true, stream_options: { include_usage: true }, messages });
    expect(second?.body.model).toBe('assistant-model');
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['tool_calls', 'tool-calls'],
    ['something_new', 'other'],
  ] as const)('maps the finish reason %s to %s', async (upstream, mapped) => {
    fake.scriptChat({ kind: 'reply', text: 'Partial answer', finishReason: upstream });
    const { finish } = await collect(model().stream(request()));
    expect(finish?.finishReason).toBe(mapped);
  });

  it('estimates usage with the project tokenizer when the server reports none', async () => {
    fake.scriptChat({ kind: 'reply', text: 'Yes.', omitUsage: true });
    const { finish } = await collect(model().stream(request()));
    // (6 + 1) + (7 + 1) with one token per role marker; "Yes." is 2.
    expect(finish?.usage).toEqual({ inputTokens: 15, outputTokens: 2, totalTokens: 17, reasoningTokens: 0, cachedInputTokens: 0 });
  });

  it('fails with BAD_GATEWAY after the deltas already streamed when the connection drops mid-stream', async () => {
    fake.scriptChat({ kind: 'fail-mid-stream', afterChunks: 3, text: 'one two three four five six' });
    const { deltas, finish, error } = await collect(model({ maxRetries: 2 }).stream(request()));
    expect(deltas.join('')).toBe('one two three ');
    expect(finish).toBeNull();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', details: { service: 'llm' } });
    // Nothing is retried once text has streamed.
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(1);
  });

  it('fails with BAD_GATEWAY carrying the status when the upstream answers 500', async () => {
    fake.scriptChat({ kind: 'http-error', status: 500, message: 'model overloaded' });
    const { deltas, error } = await collect(model().stream(request()));
    expect(deltas).toEqual([]);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', details: { service: 'llm', status: 500 } });
    expect((error as AppError).message).toContain('model overloaded');
  });

  it('retries a request that failed before anything streamed', async () => {
    fake.scriptChat({ kind: 'http-error', status: 503 }, { kind: 'reply', text: 'Recovered answer' });
    const { deltas, error } = await collect(model({ maxRetries: 1 }).stream(request()));
    expect(error).toBeNull();
    expect(deltas.join('')).toBe('Recovered answer');
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(2);
  });

  it('times out with BAD_GATEWAY when the server sends nothing', async () => {
    fake.scriptChat({ kind: 'hang' });
    const started = Date.now();
    const { error } = await collect(model({ timeoutMs: 300 }).stream(request()));
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', details: { service: 'llm', reason: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('times out when the stream stalls after some deltas', async () => {
    fake.scriptChat({ kind: 'hang', afterChunks: 2, text: 'alpha beta gamma delta' });
    const { deltas, error } = await collect(model({ timeoutMs: 300 }).stream(request()));
    expect(deltas.join('')).toBe('alpha beta ');
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', details: { reason: 'timeout' } });
  });

  it('throws the reason when the caller aborts', async () => {
    fake.scriptChat({ kind: 'hang', afterChunks: 1, text: 'first second' });
    const controller = new AbortController();
    const stream = model({ timeoutMs: 5_000 }).stream(request({ signal: controller.signal }));
    const deltas: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) {
          if (chunk.type === 'delta') {
            deltas.push(chunk.delta);
            controller.abort(new Error('caller gave up'));
          }
        }
      })(),
    ).rejects.toThrow('caller gave up');
    expect(deltas).toEqual(['first ']);
  });
});
