import { describe, expect, it, vi } from 'vitest';
import { http, newConversation, useE2eApp } from './support/e2e-app';
import { GatedChatModel } from './support/gated-chat-model';

describe('a visitor who disconnects mid-stream', () => {
  const gate = new GatedChatModel();
  const e2e = useE2eApp({}, { chatModel: gate });

  it('does not stop the reply: it is completed and stored, and the server keeps serving', async () => {
    const { publishableKey } = await e2e.admin.createProject();
    const { token, conversationId } = await newConversation(e2e.url, publishableKey);

    const abort = new AbortController();
    const response = await fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: 'a long question', stream: true }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"type":"start"');
    await gate.started();
    abort.abort();

    gate.release('the whole answer');
    const stored = await vi.waitFor(
      async () => {
        const assistant = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data[0];
        expect(assistant?.status).not.toBe('streaming');
        return assistant;
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(stored).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'the whole answer' }] });
    expect((await http(`${e2e.url}/healthz`)).status).toBe(200);
  });
});
