import { randomUUID } from 'node:crypto';
import { ManualClock } from '@palaver/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newConversation, newVisitor, startE2eApp } from './support/e2e-app';
import { GatedChatModel } from './support/gated-chat-model';
import { APP_MODES } from './support/nats-and-redis';
import { SteppedChatModel } from './support/stepped-chat-model';
import { parseUiMessageStream, uiChunks } from './support/ui-stream';

for (const mode of APP_MODES) {
  describe.skipIf(!mode.available)(`Idempotency-Key (${mode.name}${mode.available ? '' : ': NATS or Redis unreachable, skipped'})`, () => {
    let e2e: E2eApp;
    const model = new GatedChatModel();
    beforeAll(async () => {
      e2e = await startE2eApp(mode.overrides, { chatModel: model });
    });
    afterAll(async () => {
      model.open('cleanup');
      await e2e?.stop();
    });

    const visitorWithConversation = async () => {
      const { publishableKey } = await e2e.admin.createProject();
      const { token, conversationId } = await newConversation(e2e.url, publishableKey);
      return { token, conversationId, publishableKey };
    };
    const messagesOf = async (token: string, conversationId: string) =>
      (await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data as Array<{
        id: string;
        role: string;
        parts: Array<{ text: string }>;
      }>;

    it('answers 20 parallel repeats of one send with one message: the first runs, the others wait (409) or get its answer', async () => {
      const { token, conversationId } = await visitorWithConversation();
      const key = randomUUID();
      const send = () =>
        http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
          body: { content: 'one question' },
          token,
          headers: { 'idempotency-key': key },
        });
      const first = send();
      await model.started();
      const repeats = await Promise.all(Array.from({ length: 19 }, send));
      expect(repeats.map((r) => r.status)).toEqual(Array(19).fill(409));
      expect(repeats[0]?.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      model.release('the one answer');
      const answered = await first;
      expect(answered.status).toBe(200);
      expect(answered.headers.get('idempotent-replayed')).toBeNull();

      const again = await send();
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(answered.text);
      const stored = await messagesOf(token, conversationId);
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(model.waitingReplies).toBe(0);
    });

    it('runs a burst of 20 repeats of a send once, however they interleave with its reply', async () => {
      const { token, conversationId } = await visitorWithConversation();
      const key = randomUUID();
      model.open('answered at once');
      try {
        const burst = await Promise.all(
          Array.from({ length: 20 }, () =>
            http(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
              body: { content: 'burst' },
              token,
              headers: { 'idempotency-key': key },
            }),
          ),
        );
        expect(burst.every((r) => r.status === 200 || (r.status === 409 && r.body.error.code === 'IDEMPOTENCY_KEY_IN_USE'))).toBe(true);
        expect(burst.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
      } finally {
        model.close();
      }
      const stored = await messagesOf(token, conversationId);
      expect(stored.filter((m) => m.role === 'user')).toHaveLength(1);
    });

    it('refuses the key with another body (422), another path (422), a key too long (422); other callers have their own keys', async () => {
      const { token, conversationId, publishableKey } = await visitorWithConversation();
      const key = randomUUID();
      const created = await http(`${e2e.url}/v2/conversations`, { body: {}, token, headers: { 'idempotency-key': key } });
      expect(created.status).toBe(201);
      const replayed = await http(`${e2e.url}/v2/conversations`, { body: {}, token, headers: { 'idempotency-key': key } });
      expect(replayed.status).toBe(201);
      expect(replayed.body.id).toBe(created.body.id);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');

      const otherBody = await http(`${e2e.url}/v2/conversations`, {
        body: { context: { pageUrl: 'https://shop.example/' } },
        token,
        headers: { 'idempotency-key': key },
      });
      expect(otherBody.status).toBe(422);
      expect(otherBody.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const otherPath = await http(`${e2e.url}/v2/conversations/${conversationId}/close`, {
        body: {},
        token,
        headers: { 'idempotency-key': key },
      });
      expect(otherPath.status).toBe(422);

      const tooLong = await http(`${e2e.url}/v2/conversations`, { body: {}, token, headers: { 'idempotency-key': 'k'.repeat(256) } });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'Idempotency-Key' } });

      const other = await newVisitor(e2e.url, publishableKey);
      const theirs = await http(`${e2e.url}/v2/conversations`, { body: {}, token: other.token, headers: { 'idempotency-key': key } });
      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(created.body.id);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    });

    it('attaches a repeated streamed send to its reply while it runs, then answers the stored reply as a UI message stream', async () => {
      const { token, conversationId } = await visitorWithConversation();
      const key = randomUUID();
      const send = () =>
        fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
          body: JSON.stringify({ content: 'stream it', stream: true }),
        });
      const first = await send();
      await model.started();
      // The same reply, attached while the model still holds it: replayed from its first chunk, then live.
      const during = await send();
      expect(during.status).toBe(200);
      expect(during.headers.get('idempotent-replayed')).toBe('true');
      expect(during.headers.get('content-type')).toContain('text/event-stream');
      model.release('streamed once');
      const [original, attached] = await Promise.all([parseUiMessageStream(await first.text()), parseUiMessageStream(await during.text())]);
      expect(original.text).toBe('streamed once');
      expect(attached.text).toBe('streamed once');
      expect(attached.chunks.at(-1)).toEqual({ type: 'finish' });

      const after = await send();
      expect(after.status).toBe(200);
      expect(after.headers.get('idempotent-replayed')).toBe('true');
      expect(after.headers.get('content-type')).toContain('text/event-stream');
      const replay = await parseUiMessageStream(await after.text());
      expect(replay.text).toBe('streamed once');
      const messageIdOf = (parsed: typeof original) =>
        (parsed.chunks.find((c) => c.type === 'text-start') as { providerMetadata?: { palaver?: { messageId?: string } } })
          ?.providerMetadata?.palaver?.messageId;
      expect(messageIdOf(replay)).toBe(messageIdOf(original));
      expect(messageIdOf(attached)).toBe(messageIdOf(original));
      expect((await messagesOf(token, conversationId)).map((m) => m.role)).toEqual(['user', 'assistant']);
    });

    it('replays feedback and a surface B chat message (plain text stream) without doing them twice', async () => {
      const { token, conversationId } = await visitorWithConversation();
      model.open('a reply');
      try {
        await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'hello' }, token });
        const reply = (await messagesOf(token, conversationId)).find((m) => m.role === 'assistant');
        if (!reply) throw new Error('no reply stored');
        const like = (feedback: string) =>
          http(`${e2e.url}/v2/messages/${reply.id}/feedback`, { body: { feedback }, token, headers: { 'idempotency-key': 'like-1' } });
        expect((await like('like')).status).toBe(200);
        const repeat = await like('like');
        expect(repeat.headers.get('idempotent-replayed')).toBe('true');
        expect((await like('dislike')).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

        const { privateKey } = await e2e.admin.createProject();
        const chatId = randomUUID();
        const chat = () =>
          fetch(`${e2e.url}/api/customers/user-1/chats/${chatId}/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-service-key': privateKey, 'idempotency-key': 'chat-1' },
            body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text: 'hi there' }] }, streaming: true }),
          });
        const first = await chat();
        expect(await first.text()).toBe('a reply');
        const second = await chat();
        expect(second.headers.get('idempotent-replayed')).toBe('true');
        expect(second.headers.get('content-type')).toContain('text/plain');
        expect(await second.text()).toBe('a reply');
        const stored = await http(`${e2e.url}/api/customers/user-1/chats/${chatId}`, { headers: { 'x-service-key': privateKey } });
        expect(stored.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
      } finally {
        model.close();
      }
    });

    it('replays an admin POST without doing it twice', async () => {
      const { project } = await e2e.admin.createProject();
      const key = randomUUID();
      const admin = (body: object) =>
        http(`${e2e.url}/admin/v1/projects/${project.id}/qnas`, {
          body,
          token: e2e.app.adminToken,
          headers: { 'idempotency-key': key },
        });
      const qna = { question: 'Do you ship abroad?', answer: 'Yes, to the whole EU.' };
      const created = await admin(qna);
      expect(created.status).toBe(201);
      const again = await admin(qna);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(created.body.id);
      const qnas = (await e2e.admin.call('GET', `/projects/${project.id}/qnas`)).data;
      expect(qnas).toHaveLength(1);
    });
  });
}

const WAIT = { timeout: 5_000, interval: 20 };

/** Reads a response body as it arrives: the UI message stream's text, or plain text. */
const follow = (response: Response, format: 'ui' | 'plain') => {
  let text = '';
  const ended = (async () => {
    if (format === 'ui') {
      for await (const chunk of uiChunks(response.body!)) if (chunk.type === 'text-delta') text += chunk.delta;
      return;
    }
    const decoder = new TextDecoder();
    for await (const bytes of response.body!) text += decoder.decode(bytes, { stream: true });
  })();
  return { ended, text: () => text };
};

for (const mode of APP_MODES) {
  describe.skipIf(!mode.available)(`Idempotency-Key on a reply mid-stream (${mode.name})`, () => {
    let e2e: E2eApp;
    const model = new SteppedChatModel();
    beforeAll(async () => {
      e2e = await startE2eApp(mode.overrides, { chatModel: model });
    });
    afterAll(async () => {
      await e2e?.stop();
    });

    it('attaches a repeated streamed send to the same reply: replayed from its first chunk, then live to the end', async () => {
      const { publishableKey } = await e2e.admin.createProject();
      const { token, conversationId } = await newConversation(e2e.url, publishableKey);
      const send = () =>
        fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': 'send-1' },
          body: JSON.stringify({ content: 'tell me', stream: true }),
        });
      const first = follow(await send(), 'ui');
      await model.started();
      model.send('Hello ');
      await vi.waitFor(() => expect(first.text()).toBe('Hello '), WAIT);

      const repeat = await send();
      expect(repeat.status).toBe(200);
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      const attached = follow(repeat, 'ui');
      await vi.waitFor(() => expect(attached.text()).toBe('Hello '), WAIT);
      model.send('world');
      model.end();
      await Promise.all([first.ended, attached.ended]);
      expect(first.text()).toBe('Hello world');
      expect(attached.text()).toBe('Hello world');
      const stored = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { token })).body.data as Array<{
        role: string;
        parts: Array<{ text: string }>;
      }>;
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(stored[1]?.parts.map((p) => p.text).join('')).toBe('Hello world');
    });

    it('attaches a repeated surface B chat message (plain text) to the same reply', async () => {
      const { privateKey } = await e2e.admin.createProject();
      const chatId = randomUUID();
      const chat = () =>
        fetch(`${e2e.url}/api/customers/user-live/chats/${chatId}/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-key': privateKey, 'idempotency-key': 'chat-live' },
          body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text: 'hold on' }] }, streaming: true }),
        });
      const pending = chat();
      await model.started();
      model.send('plain ');
      const first = follow(await pending, 'plain');
      await vi.waitFor(() => expect(first.text()).toBe('plain '), WAIT);

      const repeat = await chat();
      expect(repeat.status).toBe(200);
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      expect(repeat.headers.get('content-type')).toContain('text/plain');
      const attached = follow(repeat, 'plain');
      await vi.waitFor(() => expect(attached.text()).toBe('plain '), WAIT);
      model.send('and live');
      model.end();
      await Promise.all([first.ended, attached.ended]);
      expect(first.text()).toBe('plain and live');
      expect(attached.text()).toBe('plain and live');
      const stored = await http(`${e2e.url}/api/customers/user-live/chats/${chatId}`, { headers: { 'x-service-key': privateKey } });
      expect(stored.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    });
  });
}

describe('Idempotency-Key expiry', () => {
  it('forgets a key after 24 hours: the same key then runs the request again', async () => {
    const clock = new ManualClock(new Date());
    // The visitor's session must outlive the key's 24 hours, or the repeat would be refused first.
    const e2e = await startE2eApp({ SESSION_IDLE_TTL_SECONDS: String(3 * 86_400) }, { clock });
    try {
      const { publishableKey } = await e2e.admin.createProject();
      const { token } = await newVisitor(e2e.url, publishableKey);
      const key = randomUUID();
      const create = () => http(`${e2e.url}/v2/conversations`, { body: {}, token, headers: { 'idempotency-key': key } });
      const first = await create();
      clock.advance(24 * 3600_000 - 60_000);
      expect((await create()).body.id).toBe(first.body.id);
      clock.advance(120_000);
      const later = await create();
      expect(later.status).toBe(201);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect(later.body.id).not.toBe(first.body.id);
    } finally {
      await e2e.stop();
    }
  });
});
