import { randomUUID } from 'node:crypto';
import type { RoutedTokenChunk, TokenChunk } from '@palaver/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { parseUiMessageStream } from './support/ui-stream';

/**
 * A reply answered whole (`stream: false`, surface B's `streaming: false`) is read by the gateway
 * from its terminal fragment alone, so inference does not publish its text fragment by fragment:
 * with a model as quick as the local responder, the reply crosses pub/sub as its result only. A
 * streamed reply still crosses fragment by fragment.
 */
describe('replies answered whole cross pub/sub as their result alone', () => {
  let e2e: E2eApp;
  let keys: Awaited<ReturnType<E2eApp['admin']['createProject']>>;
  let visitorToken: string;
  /** The fragment types published on gateways' reply channels, per reply. */
  let fragments: Map<string, TokenChunk['type'][]>;

  beforeAll(async () => {
    e2e = await startE2eApp();
    keys = await e2e.admin.createProject({ plan: 'pro' });
    // The model streams its fragments (an exact Q&A match would be one verbatim fragment).
    await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, { qnaOverride: { enabled: false, minScore: 0.9 } });
    await e2e.admin.call('POST', `/projects/${keys.project.id}/qnas`, {
      question: 'What are your opening hours?',
      answer: 'We are open from nine to five on weekdays, and from ten to two on Saturdays.',
    });
    visitorToken = (await newVisitor(e2e.url, keys.publishableKey)).token;
    // Every service of the embedded app publishes through this one pub/sub: watch what crosses it.
    const pubsub = e2e.app.infra.pubsub;
    const publish = pubsub.publish.bind(pubsub);
    pubsub.publish = async (channel, message) => {
      if (channel.startsWith('replies.')) {
        const { replyId, chunk } = message as RoutedTokenChunk;
        fragments.set(replyId, [...(fragments.get(replyId) ?? []), (chunk as TokenChunk).type]);
      }
      return publish(channel, message);
    };
  });
  afterAll(() => e2e.stop());
  beforeEach(() => {
    fragments = new Map();
  });

  const onlyReply = (): TokenChunk['type'][] => {
    expect(fragments.size).toBe(1);
    return [...fragments.values()][0]!;
  };

  const postMessage = async (stream: boolean) => {
    const conversation = await http(`${e2e.url}/v2/conversations`, { body: {}, token: visitorToken });
    return http(`${e2e.url}/v2/conversations/${conversation.body.id}/messages`, {
      body: { content: 'What are your opening hours?', stream },
      token: visitorToken,
    });
  };

  it('a visitor message answered as JSON: the finish alone; streamed: each fragment, then the finish', async () => {
    const whole = await postMessage(false);
    expect(whole.status).toBe(200);
    expect(whole.body.steps[0].content[0].text).toContain('nine to five on weekdays');
    expect(onlyReply()).toEqual(['finish']);

    fragments = new Map();
    const streamed = await postMessage(true);
    expect((await parseUiMessageStream(streamed.text)).text).toContain('nine to five on weekdays');
    const types = onlyReply();
    expect(types.filter((type) => type === 'delta').length).toBeGreaterThan(2);
    expect(types.at(-1)).toBe('finish');
  });

  it('a chat completion answered with 202: the finish alone', async () => {
    const result = await http(`${e2e.url}/v2/chat/completions`, {
      body: { messages: [{ role: 'user', content: 'What are your opening hours?' }] },
      token: keys.privateKey,
    });
    expect(result.status).toBe(202);
    expect(result.body.steps[0].content[0].text).toContain('nine to five on weekdays');
    expect(onlyReply()).toEqual(['finish']);
  });

  it("surface B's JSON reply (streaming: false): the finish alone", async () => {
    const result = await http(`${e2e.url}/api/customers/user-1/chats/${randomUUID()}/chat`, {
      body: { message: { role: 'user', parts: [{ type: 'text', text: 'What are your opening hours?' }] }, streaming: false },
      headers: { 'x-service-key': keys.privateKey },
    });
    expect(result.status).toBe(200);
    expect(result.body).toContain('nine to five on weekdays');
    expect(onlyReply()).toEqual(['finish']);
  });
});
