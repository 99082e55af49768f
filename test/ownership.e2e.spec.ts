import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp, useE2eApp } from './support/e2e-app';

describe("visitor B on visitor A's conversation and messages", () => {
  let e2e: E2eApp;
  let a: { token: string };
  let b: { token: string };
  let conversationId: string;
  let userMessageId: string;
  let assistantMessageId: string;

  beforeAll(async () => {
    e2e = await startE2eApp();
    const { publishableKey } = await e2e.admin.createProject();
    a = await newVisitor(e2e.url, publishableKey, 'device-a');
    b = await newVisitor(e2e.url, publishableKey, 'device-b');
    conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token: a.token })).body.id;
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'hello' }, token: a.token });
    const messages = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token: a.token })).body.data;
    userMessageId = messages[0].id;
    assistantMessageId = messages[1].id;
  });
  afterAll(() => e2e.stop());

  const attempts = () =>
    [
      ['GET conversation', `/v2/conversations/${conversationId}`, undefined],
      ['GET messages', `/v2/conversations/${conversationId}/messages`, undefined],
      ['POST message', `/v2/conversations/${conversationId}/messages`, { content: 'mine now' }],
      ['POST message (stream)', `/v2/conversations/${conversationId}/messages`, { content: 'mine now', stream: true }],
      ['POST close', `/v2/conversations/${conversationId}/close`, { closeReason: 'hijacked' }],
      ['POST feedback on the assistant message', `/v2/messages/${assistantMessageId}/feedback`, { feedback: 'dislike' }],
      ['POST feedback removal', `/v2/messages/${assistantMessageId}/feedback`, { feedback: null }],
      ['POST feedback on the user message', `/v2/messages/${userMessageId}/feedback`, { feedback: 'like' }],
    ] as const;

  it('gets 403 FORBIDDEN every time', async () => {
    for (const [name, path, body] of attempts()) {
      const result = await http(`${e2e.url}${path}`, { body, token: b.token });
      expect(result.status, name).toBe(403);
      expect(result.body.error.code, name).toBe('FORBIDDEN');
    }
  });

  it("changes nothing of A's conversation", async () => {
    const got = (await http(`${e2e.url}/v2/conversations/${conversationId}`, { token: a.token })).body;
    expect(got.status).toBe('open');
    expect(got.messages).toHaveLength(2);
    expect(got.messages[1].feedback).toBeNull();
  });

  it("does not list A's conversation for B", async () => {
    const listed = (await http(`${e2e.url}/v2/conversations`, { token: b.token })).body;
    expect(listed.total).toBe(0);
  });
});

describe('a visitor of another project', () => {
  const e2e = useE2eApp();

  it("cannot see that the other project's conversation exists (404)", async () => {
    const one = await e2e.admin.createProject({ name: 'one' });
    const two = await e2e.admin.createProject({ name: 'two' });
    const a = await newVisitor(e2e.url, one.publishableKey);
    const c = await newVisitor(e2e.url, two.publishableKey);
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token: a.token })).body.id;
    const result = await http(`${e2e.url}/v2/conversations/${conversationId}`, { token: c.token });
    expect(result.status).toBe(404);
    expect(result.body.error).toMatchObject({ code: 'CONVERSATION_NOT_FOUND', details: { conversationId } });
  });
});
