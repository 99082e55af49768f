import type { UIMessageChunk } from 'ai';
import { expect, it, vi } from 'vitest';
import { http, newConversation, newVisitor } from './support/e2e-app';
import { describeWithTwoGateways } from './support/second-gateway';
import { SteppedChatModel } from './support/stepped-chat-model';
import { uiChunks } from './support/ui-stream';

const WAIT = { timeout: 5_000, interval: 20 };

/** A UI message stream being read: the chunks so far, and when it ended ([DONE] or the connection). */
const follow = (response: Response) => {
  const seen: UIMessageChunk[] = [];
  const ended = (async () => {
    for await (const chunk of uiChunks(response.body!)) seen.push(chunk);
    return Date.now();
  })();
  const text = () => seen.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
  return { seen, ended, text };
};

let model = new SteppedChatModel();

describeWithTwoGateways(
  'a reply in progress, resumed and stopped',
  (start) => {
    const setUp = async () => {
      model = new SteppedChatModel();
      const { e2e, other } = await start();
      const { publishableKey } = await e2e.admin.createProject();
      const { token, conversationId } = await newConversation(e2e.url, publishableKey);
      const post = (content: string) =>
        fetch(`${e2e.url}/v2/conversations/${conversationId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ content, stream: true }),
        });
      const resume = (url: string, bearer = token) =>
        fetch(`${url}/v2/conversations/${conversationId}/stream`, { headers: { authorization: `Bearer ${bearer}` } });
      const assistant = async () =>
        (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data[0];
      return { e2e, other, token, publishableKey, conversationId, post, resume, assistant };
    };

    it('replays the reply from its first chunk on another gateway, then follows it live to [DONE]; 204 once it is over', async () => {
      const { e2e, other, post, resume, assistant } = await setUp();
      expect((await resume(other)).status).toBe(204);

      const original = follow(await post('tell me everything'));
      await model.started();
      model.send('Hello ');
      await vi.waitFor(() => expect(original.text()).toBe('Hello '), WAIT);

      // The visitor reloads: the page asks the other gateway for the reply in progress.
      const response = await resume(other);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      const resumed = follow(response);
      await vi.waitFor(() => expect(resumed.text()).toBe('Hello '), WAIT);
      model.send('world');
      model.end();
      await Promise.all([resumed.ended, original.ended]);
      expect(resumed.text()).toBe('Hello world');
      expect(original.text()).toBe('Hello world');
      const stored = await assistant();
      expect(resumed.seen.map((c) => c.type)).toEqual([
        'start',
        'start-step',
        'text-start',
        'text-delta',
        'text-delta',
        'text-end',
        'finish-step',
        'finish',
      ]);
      expect(resumed.seen[2]).toMatchObject({ id: stored.id, providerMetadata: { palaver: { messageId: stored.id } } });
      expect(stored).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'Hello world' }] });
      expect((await resume(e2e.url)).status).toBe(204);
    });

    it('stops the reply: every stream of it ends within a second, the text so far is stored, the model call is cancelled', async () => {
      const { e2e, other, token, conversationId, post, resume, assistant } = await setUp();
      expect((await http(`${other}/v2/conversations/${conversationId}/stop`, { method: 'POST', token })).body).toEqual({
        stopped: false,
        messageId: null,
      });
      const original = follow(await post('a long story please'));
      await model.started();
      model.send('Once upon ');
      await vi.waitFor(() => expect(original.text()).toBe('Once upon '), WAIT);
      const resumed = follow(await resume(e2e.url));
      await vi.waitFor(() => expect(resumed.text()).toBe('Once upon '), WAIT);

      const stoppedAt = Date.now();
      const stop = await http(`${other}/v2/conversations/${conversationId}/stop`, { method: 'POST', token });
      expect(stop.status).toBe(200);
      const stored = await assistant();
      expect(stop.body).toEqual({ stopped: true, messageId: stored.id });
      const [originalEnd, resumedEnd] = await Promise.all([original.ended, resumed.ended]);
      expect(originalEnd - stoppedAt).toBeLessThan(1_000);
      expect(resumedEnd - stoppedAt).toBeLessThan(1_000);
      for (const stream of [original, resumed]) {
        expect(stream.text()).toBe('Once upon ');
        expect(stream.seen.at(-1)).toEqual({ type: 'finish' });
      }
      expect(stored).toMatchObject({ status: 'complete', error: null, parts: [{ type: 'text', text: 'Once upon ' }] });
      await vi.waitFor(() => expect(model.cancelled).toBe(1), WAIT);
      // Nothing the cancelled call could still report changes what was stored.
      expect(await assistant()).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'Once upon ' }] });
      expect((await resume(other)).status).toBe(204);

      // The conversation goes on.
      const next = follow(await post('and then?'));
      await model.started();
      model.send('The end.');
      model.end();
      await next.ended;
      expect(next.text()).toBe('The end.');
    });

    it('answers another visitor as a read of the conversation does (403 FORBIDDEN), on both routes, and leaves the reply alone', async () => {
      const { other, publishableKey, conversationId, post, resume } = await setUp();
      const stranger = await newVisitor(other, publishableKey);
      const original = follow(await post('hello'));
      await model.started();
      try {
        const resumed = await resume(other, stranger.token);
        expect(resumed.status).toBe(403);
        expect((await resumed.json()).error.code).toBe('FORBIDDEN');
        const stop = await http(`${other}/v2/conversations/${conversationId}/stop`, { method: 'POST', token: stranger.token });
        expect(stop.status).toBe(403);
        expect(stop.body.error.code).toBe('FORBIDDEN');
      } finally {
        model.send('still mine');
        model.end();
      }
      await original.ended;
      expect(original.text()).toBe('still mine');
    });
  },
  () => ({ chatModel: model }),
);
