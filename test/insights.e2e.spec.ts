import { ManualClock } from '@palaver/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type E2eApp, http, newVisitor, startE2eApp } from './support/e2e-app';
import { RecordingChatModel } from './support/recording-chat-model';

/** Analytics' read models follow the durable stream: eventually consistent. */
const POLL = { timeout: 10_000, interval: 50 } as const;

describe('insights: CSAT, unanswered questions, the Q&A override and the summary', () => {
  const model = new RecordingChatModel();
  const clock = new ManualClock(new Date('2026-05-04T09:00:00.000Z'));
  let e2e: E2eApp;
  let projectId: string;
  let publishableKey: string;
  let token: string;

  beforeAll(async () => {
    e2e = await startE2eApp({}, { chatModel: model, clock });
    const created = await e2e.admin.createProject();
    projectId = created.project.id;
    publishableKey = created.publishableKey;
    ({ token } = await newVisitor(e2e.url, publishableKey));
  });
  afterAll(() => e2e.stop());

  const start = async (as = token): Promise<string> => (await http(`${e2e.url}/v2/conversations`, { body: {}, token: as })).body.id;
  const ask = async (conversationId: string, content: string, as = token): Promise<string> => {
    const sent = await http(`${e2e.url}/v2/conversations/${conversationId}/messages`, { body: { content }, token: as });
    expect(sent.status).toBe(200);
    return sent.body.steps[0].content[0].text;
  };
  const userMessages = async (conversationId: string, as = token): Promise<string[]> =>
    (await http(`${e2e.url}/v2/conversations/${conversationId}/messages?role=user`, { token: as })).body.data.map(
      (m: { id: string }) => m.id,
    );
  const rate = (conversationId: string, body: unknown, as = token) =>
    http(`${e2e.url}/v2/conversations/${conversationId}/rating`, { body, token: as });
  const unanswered = () => e2e.admin.call('GET', `/projects/${projectId}/insights/unanswered`);

  describe('the rating (CSAT)', () => {
    let conversationId: string;
    beforeAll(async () => {
      conversationId = await start();
      await ask(conversationId, 'hello');
    });

    it('is 201 with the stored rating, and a second rating replaces the first', async () => {
      const first = await rate(conversationId, { score: 5 });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        object: 'conversation.rating',
        conversationId,
        score: 5,
        comment: null,
        ratedAt: clock.now().toISOString(),
      });
      const second = await rate(conversationId, { score: 2, comment: 'x'.repeat(1000) });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ score: 2, comment: 'x'.repeat(1000) });
    });

    it('refuses scores outside 1..5, fractions, and comments over 1,000 characters', async () => {
      const outcomes = [];
      for (const body of [{ score: 0 }, { score: 6 }, { score: 2.5 }, { score: 3, comment: 'x'.repeat(1001) }, { score: '5' }, {}]) {
        const refused = await rate(conversationId, body);
        outcomes.push([refused.status, refused.body.error.code]);
      }
      // Out of bounds: 422 (the spec's VALIDATION_ERROR); not an integer, or no score: 400.
      expect(outcomes).toEqual([
        [422, 'VALIDATION_ERROR'],
        [422, 'VALIDATION_ERROR'],
        [400, 'INVALID_REQUEST_BODY'],
        [422, 'VALIDATION_ERROR'],
        [400, 'INVALID_REQUEST_BODY'],
        [400, 'INVALID_REQUEST_BODY'],
      ]);
      expect((await rate(conversationId, { score: 2, comment: 'x'.repeat(1000) })).status).toBe(201);
    });

    it("is the conversation owner's: another visitor is refused, an unknown conversation is not found", async () => {
      const other = await newVisitor(e2e.url, publishableKey);
      expect((await rate(conversationId, { score: 1 }, other.token)).status).toBe(403);
      const unknown = await rate(crypto.randomUUID(), { score: 1 });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    });

    it('reaches the feed as conversation.rated', async () => {
      const rated = await vi.waitFor(async () => {
        const page = await e2e.admin.call('GET', `/projects/${projectId}/events?type=conversation.rated`);
        expect(page.data).toHaveLength(2);
        return page.data;
      }, POLL);
      expect(rated.map((e: { data: { score: number; previousScore: number | null } }) => [e.data.score, e.data.previousScore])).toEqual([
        [5, null],
        [2, 5],
      ]);
      expect(rated[0].conversationId).toBe(conversationId);
    });
  });

  describe('unanswered questions', () => {
    let first: string;
    let second: string;

    beforeAll(async () => {
      // The project has no knowledge at all: every reply is one without knowledge.
      first = await start();
      await ask(first, 'Do you deliver to Iceland?');
      await ask(first, 'What colours does the Falcon bike come in?');
      second = await start();
      clock.advance(60_000);
      await ask(second, 'do you deliver to iceland');
    });

    it('groups them by meaning, with counts, the last time asked and example messages', async () => {
      const groups = await vi.waitFor(async () => {
        const list = await unanswered();
        expect(list.data.reduce((n: number, g: { count: number }) => n + g.count, 0)).toBe(4);
        return list.data;
      }, POLL);
      const [firstIds, secondIds] = [await userMessages(first), await userMessages(second)];
      expect(groups).toHaveLength(3);
      const iceland = groups[0];
      expect(iceland).toMatchObject({ question: 'do you deliver to iceland', count: 2, lastAskedAt: clock.now().toISOString() });
      expect(iceland.examples).toEqual([
        { conversationId: second, messageId: secondIds[0] },
        { conversationId: first, messageId: firstIds[0] },
      ]);
      expect(groups.map((g: { question: string }) => g.question).sort()).toEqual([
        'What colours does the Falcon bike come in?',
        'do you deliver to iceland',
        'hello',
      ]);
      // The range is on the time asked.
      const later = await e2e.admin.call(
        'GET',
        `/projects/${projectId}/insights/unanswered?from=${encodeURIComponent(clock.now().toISOString())}`,
      );
      expect(later.data.map((g: { question: string; count: number }) => [g.question, g.count])).toEqual([['do you deliver to iceland', 1]]);
    });

    it('answering a group creates a Q&A entry (201), which then answers the question verbatim without the model', async () => {
      const group = (await unanswered()).data[0];
      const answer = 'Yes: we deliver to Iceland within five days.';
      const created = await http(`${e2e.url}/admin/v1/projects/${projectId}/insights/unanswered/${group.id}/answer`, {
        body: { answer },
        token: e2e.app.adminToken,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ object: 'qna', question: 'do you deliver to iceland', answer });
      const qnas = await e2e.admin.call('GET', `/projects/${projectId}/qnas`);
      expect(qnas.data.map((q: { id: string }) => q.id)).toContain(created.body.id);
      expect((await unanswered()).data.map((g: { id: string }) => g.id)).not.toContain(group.id);

      const again = await http(`${e2e.url}/admin/v1/projects/${projectId}/insights/unanswered/${group.id}/answer`, {
        body: { answer },
        token: e2e.app.adminToken,
      });
      expect(again.status).toBe(409);

      const calls = model.requests.length;
      const conversationId = await start();
      expect(await ask(conversationId, 'Do you deliver to Iceland?')).toBe(answer);
      expect(model.requests.length).toBe(calls);
    });

    it('the override is a project setting: switched off, the model answers', async () => {
      await e2e.admin.call('PATCH', `/projects/${projectId}`, { qnaOverride: { enabled: false, minScore: 0.9 } });
      const calls = model.requests.length;
      const conversationId = await start();
      await vi.waitFor(async () => {
        expect(await ask(conversationId, 'Do you deliver to Iceland?')).toMatch(/^Reply \d+ to/);
      }, POLL);
      expect(model.requests.length).toBeGreaterThan(calls);
      await e2e.admin.call('PATCH', `/projects/${projectId}`, { qnaOverride: { enabled: true, minScore: 0.9 } });
    });

    it('an unknown group is not found; an empty answer is refused', async () => {
      const path = `${e2e.url}/admin/v1/projects/${projectId}/insights/unanswered/${crypto.randomUUID()}/answer`;
      expect((await http(path, { body: { answer: 'x' }, token: e2e.app.adminToken })).status).toBe(404);
      expect((await http(path, { body: { answer: ' ' }, token: e2e.app.adminToken })).status).toBe(422);
    });
  });

  describe('the summary', () => {
    it('matches a scripted set of conversations', async () => {
      const created = await e2e.admin.createProject();
      const p = created.project.id;
      const visitor = (await newVisitor(e2e.url, created.publishableKey)).token;
      const from = clock.now().toISOString();
      // A: two exchanges (4 messages), the first reply liked, rated 4.
      const a = await start(visitor);
      await ask(a, 'one', visitor);
      await ask(a, 'two', visitor);
      const replies = (await http(`${e2e.url}/v2/conversations/${a}/messages?role=assistant`, { token: visitor })).body.data;
      await http(`${e2e.url}/v2/messages/${replies[0].id}/feedback`, { body: { feedback: 'like' }, token: visitor });
      await http(`${e2e.url}/v2/messages/${replies[1].id}/feedback`, { body: { feedback: 'dislike' }, token: visitor });
      await rate(a, { score: 4 }, visitor);
      // B: one exchange, handed to Ada, who writes 90 s later; rated 2.
      const b = await start(visitor);
      await ask(b, 'three', visitor);
      await e2e.admin.call('POST', `/projects/${p}/conversations/${b}/handoff`, { humanAgent: { name: 'Ada', image: null } });
      clock.advance(90_000);
      await e2e.admin.call('POST', `/projects/${p}/conversations/${b}/messages`, { content: 'Hi, Ada here.' });
      await rate(b, { score: 2 }, visitor);
      // C: started, nothing said.
      await start(visitor);

      const summary = await vi.waitFor(async () => {
        const s = await e2e.admin.call('GET', `/projects/${p}/insights/summary?from=${encodeURIComponent(from)}`);
        expect([s.conversations, s.messages, s.csat.responses]).toEqual([3, 7, 2]);
        return s;
      }, POLL);
      expect(summary).toEqual({
        conversations: 3,
        // A: 2 + 2 replies; B: 1 + 1 reply + 1 agent message
        messages: 7,
        resolvedWithoutHuman: 2,
        handoffRate: 1 / 3,
        likeRate: 1 / 2,
        csat: { average: 3, responses: 2 },
        medianFirstAgentReplyMs: 90_000,
      });
      const before = await e2e.admin.call('GET', `/projects/${p}/insights/summary?to=${encodeURIComponent(from)}`);
      expect(before.conversations).toBe(0);
      const bad = await http(`${e2e.url}/admin/v1/projects/${p}/insights/summary?from=yesterday`, { token: e2e.app.adminToken });
      expect(bad.status).toBe(400);
    });
  });

  describe('closing from the inbox', () => {
    it('the agent who holds a conversation closes it; another agent cannot; the visitor can then rate it', async () => {
      const ada = await e2e.admin.call('POST', `/projects/${projectId}/agents`, { name: 'Ada' });
      const grace = await e2e.admin.call('POST', `/projects/${projectId}/agents`, { name: 'Grace' });
      const agent = (as: string, path: string, body?: unknown) => http(`${e2e.url}/agent/v1${path}`, { method: 'POST', body, token: as });
      const conversationId = await start();
      await ask(conversationId, 'hello again');
      expect((await agent(ada.token, `/conversations/${conversationId}/handoff`)).status).toBe(200);
      expect((await agent(grace.token, `/conversations/${conversationId}/close`, {})).status).toBe(409);
      const closed = await agent(ada.token, `/conversations/${conversationId}/close`, { closeReason: 'solved' });
      expect(closed.status).toBe(200);
      expect(closed.body.status).toBe('closed');
      const seen = await http(`${e2e.url}/v2/conversations/${conversationId}`, { token });
      expect(seen.body.status).toBe('closed');
      expect((await rate(conversationId, { score: 5 })).status).toBe(201);
    });
  });
});
