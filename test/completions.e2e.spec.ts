import { ChatCompletionResult } from '@palaver/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, useE2eApp, useProject } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

describe('POST /v2/chat/completions', () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e, { plan: 'pro' });
  beforeAll(async () => {
    await e2e.admin.call('POST', `/projects/${keys.project.id}/qnas`, {
      question: 'What are your opening hours?',
      answer: 'Nine to five on weekdays.',
    });
  });

  const messages = [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'What are your opening hours?' },
  ];

  it('answers 202 with the Chat completion result, grounded in the project', async () => {
    const result = await http(`${e2e.url}/v2/chat/completions`, { body: { messages }, token: keys.privateKey });
    expect(result.status).toBe(202);
    const body = ChatCompletionResult.parse(result.body);
    expect(body.steps[0]!.content[0]!.text).toContain('Nine to five on weekdays.');
    expect(body.steps[0]!.usage.totalTokens).toBeGreaterThan(0);
  });

  it('streams the UI message stream', async () => {
    const response = await fetch(`${e2e.url}/v2/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.privateKey}` },
      body: JSON.stringify({ messages, stream: true }),
    });
    expect(response.status).toBe(200);
    const parsed = await parseUiMessageStream(await response.text());
    expect(parsed.chunks[0]!.type).toBe('start');
    expect(parsed.chunks.at(-1)!.type).toBe('finish');
    expect(parsed.text).toContain('Nine to five on weekdays.');
  });

  it('takes an assistant of the project, and 404 for one of another project', async () => {
    const assistant = await e2e.admin.call('POST', `/projects/${keys.project.id}/assistants`, {
      name: 'Second',
      instructions: 'Be terse.',
    });
    expect(
      (await http(`${e2e.url}/v2/chat/completions`, { body: { messages, assistantId: assistant.id }, token: keys.privateKey })).status,
    ).toBe(202);
    const other = await e2e.admin.createProject({ plan: 'pro' });
    const foreign = await http(`${e2e.url}/v2/chat/completions`, {
      body: { messages, assistantId: other.project.defaultAssistantId },
      token: keys.privateKey,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('ASSISTANT_NOT_FOUND');
  });

  it('401 without or with a bad key, 403 with a publishable key', async () => {
    expect((await http(`${e2e.url}/v2/chat/completions`, { body: { messages } })).status).toBe(401);
    expect((await http(`${e2e.url}/v2/chat/completions`, { body: { messages }, token: 'sk_nope' })).status).toBe(401);
    const publishable = await http(`${e2e.url}/v2/chat/completions`, { body: { messages }, token: keys.publishableKey });
    expect(publishable.status).toBe(403);
    expect(publishable.body.error.code).toBe('FORBIDDEN');
  });

  it('402 on the free plan, with currentPlan, requiredPlan and feature', async () => {
    const free = await e2e.admin.createProject({ plan: 'free' });
    const result = await http(`${e2e.url}/v2/chat/completions`, { body: { messages }, token: free.privateKey });
    expect(result.status).toBe(402);
    expect(result.body.error).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      details: { currentPlan: 'free', requiredPlan: 'pro', feature: 'chat_completions' },
    });
  });
});
