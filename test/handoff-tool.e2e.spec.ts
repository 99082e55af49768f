import { FakeOpenAiServer } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

describe('a real model asking for a person with the request_human_agent tool', () => {
  let fake: FakeOpenAiServer;
  let e2e: E2eApp;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    e2e = await startE2eApp({ OPENAI_BASE_URL: fake.baseURL, OPENAI_MODEL: 'house-model', OPENAI_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await e2e.stop();
    await fake.close();
  });

  const conversation = async (handoff: boolean) => {
    const { project, publishableKey } = await e2e.admin.createProject();
    if (handoff) await e2e.admin.call('PATCH', `/projects/${project.id}`, { handoff: { enabled: true } });
    const { token } = await newVisitor(e2e.url, publishableKey);
    const id = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id as string;
    return { token, id };
  };
  const lastChatBody = () => [...fake.requests].reverse().find((r) => r.path === '/v1/chat/completions')!.body;

  it('offers the tool when handoff is on; a call queues the conversation and tells the visitor', async () => {
    const { token, id } = await conversation(true);
    fake.scriptChat({ kind: 'reply', text: '', toolCall: 'request_human_agent' });
    const sent = await http(`${e2e.url}/v2/conversations/${id}/messages`, {
      body: { content: 'My order never came, this is awful' },
      token,
    });
    expect(sent.status).toBe(200);
    expect(lastChatBody().tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['request_human_agent']);
    expect(sent.body.steps[0].content[0].text).toMatch(/agent will answer/);
    const got = (await http(`${e2e.url}/v2/conversations/${id}`, { token })).body;
    expect(got.isHumanHandled).toBe(true);
    expect(got.messages.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
    expect((await http(`${e2e.url}/v2/conversations/${id}/messages`, { body: { content: 'hello?' }, token })).status).toBe(202);
  });

  it('offers no tool when handoff is off', async () => {
    const { token, id } = await conversation(false);
    const sent = await http(`${e2e.url}/v2/conversations/${id}/messages`, { body: { content: 'Hi' }, token });
    expect(sent.status).toBe(200);
    expect(lastChatBody().tools).toBeUndefined();
  });
});
