import { FakeOpenAiServer } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

describe('an OpenAI-compatible model behind the whole product', () => {
  let fake: FakeOpenAiServer;
  let e2e: E2eApp;
  let token: string;
  let conversationId: string;
  let privateKey: string;
  let projectId: string;
  let assistantId: string;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKey: 'upstream-key' });
    e2e = await startE2eApp({
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_API_KEY: 'upstream-key',
      OPENAI_MODEL: 'house-model',
      OPENAI_TIMEOUT_MS: '1000',
    });
    const created = await e2e.admin.createProject({ plan: 'pro' });
    privateKey = created.privateKey;
    projectId = created.project.id;
    await e2e.admin.call('PATCH', `/projects/${projectId}`, { name: 'Upstream shop' });
    await e2e.admin.call('POST', `/projects/${projectId}/qnas`, {
      question: 'What are your opening hours?',
      answer: 'Open from nine to five.',
    });
    const assistant = await e2e.admin.call('POST', `/projects/${projectId}/assistants`, {
      name: 'Concierge',
      instructions: 'You are the concierge of Upstream shop.',
      model: 'concierge-model',
    });
    const key = await e2e.admin.call('POST', `/projects/${projectId}/keys`, {
      type: 'publishable',
      name: 'concierge widget',
      assistantId: assistant.id,
      allowedOrigins: [],
    });
    assistantId = assistant.id;
    ({ token } = await newVisitor(e2e.url, key.key));
    conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
  });
  afterAll(async () => {
    await e2e.stop();
    await fake.close();
  });

  const post = (content: string, stream = false) =>
    http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content, stream }, token });
  const lastAssistantMessage = async () =>
    (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data.at(-1);

  it("sends the assistant's model, instructions, the retrieved knowledge and the page context, and maps the usage", async () => {
    fake.scriptChat({ kind: 'reply', text: 'We open at nine.', reasoningTokens: 3, cachedTokens: 2 });
    const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      body: { content: 'When do you open?', pageContext: { url: 'https://shop.example/hours', title: 'Hours' } },
      token,
    });
    expect(sent.status).toBe(200);
    const step = sent.body.steps[0];
    expect(step.content[0].text).toBe('We open at nine.');
    expect(step.usage).toMatchObject({ reasoningTokens: 3, cachedInputTokens: 2 });
    expect(step.usage.totalTokens).toBe(step.usage.inputTokens + step.usage.outputTokens);

    const request = fake.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!;
    expect(request.authorization).toBe('Bearer upstream-key');
    expect(request.body.model).toBe('concierge-model');
    const system = request.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are the concierge of Upstream shop.');
    expect(system.content).toContain('Open from nine to five.');
    expect(system.content).toContain('https://shop.example/hours');
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: 'When do you open?' });
  });

  it("uses the assistant's new instructions and model from the next reply after an edit (inference keeps assistants)", async () => {
    const lastRequest = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!;
    fake.scriptChat({ kind: 'reply', text: 'Nine.' });
    expect((await post('When do you open?')).status).toBe(200);
    expect(lastRequest().body.model).toBe('concierge-model');

    await e2e.admin.call('PATCH', `/projects/${projectId}/assistants/${assistantId}`, {
      instructions: 'You are the night porter of Upstream shop.',
      model: 'porter-model',
    });
    fake.scriptChat({ kind: 'reply', text: 'At nine.' });
    expect((await post('When do you open?')).status).toBe(200);
    expect(lastRequest().body.model).toBe('porter-model');
    expect(lastRequest().body.messages[0].content).toContain('You are the night porter of Upstream shop.');
  });

  it('answers 502 BAD_GATEWAY when the upstream fails, and stores the reply as an error', async () => {
    // The adapter tries three times (two retries) before anything has streamed.
    fake.scriptChat(...Array.from({ length: 3 }, () => ({ kind: 'http-error' as const, status: 500 })));
    const sent = await post('Are you there?');
    expect(sent.status).toBe(502);
    expect(sent.body.error).toMatchObject({ code: 'BAD_GATEWAY', details: { service: 'llm' } });
    const stored = await lastAssistantMessage();
    expect(stored.status).toBe('error');
    expect(stored.error).toEqual(expect.any(String));
  });

  it('ends a stream that fails midway with an error chunk, keeping the partial text on the stored message', async () => {
    fake.scriptChat({ kind: 'fail-mid-stream', afterChunks: 2, text: 'one two three four five six seven eight' });
    const response = await fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: 'Tell me a long story', stream: true }),
    });
    const parsed = await parseUiMessageStream(await response.text());
    const types = parsed.chunks.map((c) => c.type);
    expect(types).toContain('error');
    expect(types.slice(0, 3)).toEqual(['start', 'start-step', 'text-start']);
    expect(types.at(-1)).toBe('finish');
    expect(parsed.rawLines.at(-1)).toBe('data: [DONE]');
    const stored = await lastAssistantMessage();
    expect(stored.status).toBe('error');
    expect(stored.parts[0].text.length).toBeGreaterThan(0);
    expect(parsed.text.startsWith(stored.parts[0].text) || stored.parts[0].text.startsWith(parsed.text)).toBe(true);
  });

  it('gives up on an upstream that hangs (502), and the conversation takes the next message', async () => {
    fake.scriptChat({ kind: 'hang' });
    const sent = await post('Hello?');
    expect(sent.status).toBe(502);
    fake.scriptChat({ kind: 'reply', text: 'Back again.' });
    const next = await post('Hello again?');
    expect(next.status).toBe(200);
    expect(next.body.steps[0].content[0].text).toBe('Back again.');
  });

  it('chat completions: 502 for a failing upstream without streaming', async () => {
    fake.scriptChat(...Array.from({ length: 3 }, () => ({ kind: 'http-error' as const, status: 503 })));
    const result = await http(`${e2e.url}/v2/chat/completions`, {
      body: { messages: [{ role: 'user', content: 'hi' }] },
      token: privateKey,
    });
    expect(result.status).toBe(502);
    expect(result.body.error.code).toBe('BAD_GATEWAY');
  });
});
