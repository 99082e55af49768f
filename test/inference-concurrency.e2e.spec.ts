import { afterEach, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { GatedChatModel } from './support/gated-chat-model';

/**
 * A reply mostly waits on the model, so one inference process generates many at once: as many as
 * INFERENCE_CONCURRENCY, the next one waiting for a free slot.
 */
describe('replies generated at once by one inference process', () => {
  let e2e: E2eApp | null = null;
  let model: GatedChatModel;
  afterEach(async () => {
    // A reply still waiting on the model holds the app's stop: a failed test lets them all answer.
    model.open('Bye.');
    await e2e?.stop();
    e2e = null;
  });

  /** `count` conversations of one visitor, each sending a message; resolves with the answers' statuses. */
  const converse = async (app: E2eApp, count: number): Promise<Promise<number>[]> => {
    const { publishableKey } = await app.admin.createProject();
    const { token } = await newVisitor(app.url, publishableKey);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await http(`${app.url}/v2/conversations`, { body: {}, token })).body.id);
    conversations = ids.map((id) => ({ url: app.url, id, token }));
    return ids.map(async (id) => (await http(`${app.url}/v2/conversations/${id}/messages`, { body: { content: 'Hello?' }, token })).status);
  };
  let conversations: Array<{ url: string; id: string; token: string }> = [];
  /** The status of a conversation's assistant message ('streaming' once its reply is queued), or null before it exists. */
  const assistantStatus = async ({ url, id, token }: { url: string; id: string; token: string }): Promise<string | null> =>
    (await http(`${url}/v2/conversations/${id}/messages?role=assistant`, { token })).body.data[0]?.status ?? null;

  it('as many as INFERENCE_CONCURRENCY; the next starts when one ends', async () => {
    model = new GatedChatModel();
    e2e = await startE2eApp({ INFERENCE_CONCURRENCY: '3' }, { chatModel: model });
    const answers = await converse(e2e, 5);
    await vi.waitFor(() => expect(model.waitingReplies).toBe(3), { timeout: 5_000, interval: 20 });
    // All five are queued (each assistant message is streaming) while three reach the model.
    await vi.waitFor(async () => expect(await Promise.all(conversations.map(assistantStatus))).toEqual(Array(5).fill('streaming')), {
      timeout: 5_000,
      interval: 20,
    });
    expect(model.startedReplies).toBe(3);
    // One ends, and the fourth starts: the fifth, queued before that, still waits for a slot.
    model.release('First.');
    await vi.waitFor(() => expect(model.startedReplies).toBe(4), { timeout: 5_000, interval: 20 });
    expect(model.waitingReplies).toBe(3);
    for (let i = 0; i < 4; i++) {
      await vi.waitFor(() => expect(model.waitingReplies).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
      model.release('Next.');
    }
    expect(await Promise.all(answers)).toEqual([200, 200, 200, 200, 200]);
  });

  it('by default, 20 conversations waiting on the model at once are all being answered', async () => {
    model = new GatedChatModel();
    e2e = await startE2eApp({}, { chatModel: model });
    const answers = await converse(e2e, 20);
    await vi.waitFor(() => expect(model.waitingReplies).toBe(20), { timeout: 5_000, interval: 20 });
    for (let i = 0; i < 20; i++) model.release('Hello!');
    expect(await Promise.all(answers)).toEqual(Array(20).fill(200));
  });
});
