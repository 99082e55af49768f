import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';

/** The feed and the summary are analytics' projections of the durable stream: eventually consistent. */
const POLL = { timeout: 5_000, interval: 50 } as const;

describe('the feedback stream for analysts', () => {
  let e2e: E2eApp;
  let projectId: string;
  let token: string;
  let messageIds: string[];

  beforeAll(async () => {
    e2e = await startE2eApp();
    const created = await e2e.admin.createProject();
    projectId = created.project.id;
    ({ token } = await newVisitor(e2e.url, created.publishableKey));
    const conversationId = (await http(`${e2e.url}/v2/conversations`, { body: {}, token })).body.id;
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'one' }, token });
    await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content: 'two' }, token });
    const assistants = (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=assistant`, { token })).body.data;
    messageIds = assistants.map((m: { id: string }) => m.id);
  });
  afterAll(() => e2e.stop());

  const feedback = (messageId: string, value: string | null) =>
    http(`${e2e.url}/v2/messages/${messageId}/feedback`, { body: { feedback: value }, token });
  const feedbackEvents = async (query = '') => (await e2e.admin.call('GET', `/projects/${projectId}/events?type=feedback&${query}`)).data;

  it('sees a like, a dislike and a removal in order, pages with the cursor, and tails them live', async () => {
    const tail = new AbortController();
    const live = fetch(`${e2e.url}/admin/v1/projects/${projectId}/events?follow=true&type=feedback`, {
      headers: { authorization: `Bearer ${e2e.app.adminToken}` },
      signal: tail.signal,
    });

    await feedback(messageIds[0]!, 'like');
    await feedback(messageIds[0]!, 'dislike');
    await feedback(messageIds[0]!, null);

    const events = await vi.waitFor(async () => {
      const list = await feedbackEvents();
      expect(list.length).toBeGreaterThanOrEqual(3);
      return list;
    }, POLL);
    expect(events.map((e: any) => e.data.feedback)).toEqual(['like', 'dislike', null]);
    expect(events.map((e: any) => e.type)).toEqual(['feedback.given', 'feedback.given', 'feedback.removed']);
    expect(events.every((e: any) => e.data.messageId === messageIds[0])).toBe(true);

    const firstPage = await e2e.admin.call('GET', `/projects/${projectId}/events?type=feedback&limit=1`);
    expect(firstPage.data).toHaveLength(1);
    const rest = await e2e.admin.call(
      'GET',
      `/projects/${projectId}/events?type=feedback&after=${encodeURIComponent(firstPage.nextCursor)}&limit=500`,
    );
    expect(rest.data.map((e: any) => e.data.feedback)).toEqual(['dislike', null]);

    const response = await live;
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while ((text.match(/"feedback"/g) ?? []).length < 3) text += new TextDecoder().decode((await reader.read()).value);
    tail.abort();
    const tailed = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
    expect(tailed.map((e) => e.data.feedback)).toEqual(['like', 'dislike', null]);
  });

  it('the summary counts only the latest value of each message', async () => {
    await feedback(messageIds[1]!, 'like');
    await feedback(messageIds[1]!, 'dislike');
    await feedback(messageIds[0]!, 'like');
    const summary = await vi.waitFor(async () => {
      const counted = await e2e.admin.call('GET', `/projects/${projectId}/analytics/feedback`);
      expect(counted.likes + counted.dislikes).toBe(2);
      return counted;
    }, POLL);
    expect(summary).toMatchObject({ likes: 1, dislikes: 1, removals: 1 });
    const today = new Date().toISOString().slice(0, 10);
    expect(summary.byDay.find((d: any) => d.day === today)).toBeDefined();
  });
});
