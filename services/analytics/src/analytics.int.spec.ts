import { randomUUID } from 'node:crypto';
import { AnalyticsMessages, type ConversationEvent, eventSubject, type StoredEvent } from '@palaver/contracts';
import type { RunningService } from '@palaver/platform';
import { createTestInfrastructure } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAnalyticsService } from './index';

type TestInfrastructure = Awaited<ReturnType<typeof createTestInfrastructure>>;

/** One conversation of one project, emitting events as the conversation service would. */
class ConversationFixture {
  readonly conversationId = randomUUID();
  private version = 0;
  private minute = 0;

  constructor(
    private readonly infra: TestInfrastructure,
    readonly projectId: string,
    private readonly day = '2026-03-01',
  ) {}

  event(domain: ConversationEvent, occurredAt?: string): StoredEvent {
    this.version += 1;
    this.minute += 1;
    return {
      ...domain,
      eventId: randomUUID(),
      streamId: `conversation-${this.conversationId}`,
      version: this.version,
      projectId: this.projectId,
      occurredAt: occurredAt ?? `${this.day}T10:${String(this.minute).padStart(2, '0')}:00.000Z`,
    };
  }

  feedback(messageId: string, feedback: 'like' | 'dislike' | null, previous: 'like' | 'dislike' | null, occurredAt?: string) {
    return this.event({ type: 'MessageFeedbackGiven', data: { messageId, feedback, previous } }, occurredAt);
  }

  async publish(...events: StoredEvent[]): Promise<void> {
    for (const e of events) await this.infra.eventStream.publish(eventSubject(e.type), e, e.eventId);
  }
}

describe('analytics service', () => {
  let infra: TestInfrastructure;
  let service: RunningService;

  const list = (projectId: string, extra: { type?: string; after?: string; limit?: number } = {}) =>
    infra.services.send(AnalyticsMessages.listEvents, { projectId, limit: 100, ...extra });
  const summary = (projectId: string) => infra.services.send(AnalyticsMessages.feedbackSummary, { projectId });
  /** The project's feed once it holds at least `n` events (it is a projection of the durable stream). */
  const feedOf = (projectId: string, n: number) =>
    vi.waitFor(
      async () => {
        const page = await list(projectId);
        expect(page.data.length).toBeGreaterThanOrEqual(n);
        return page;
      },
      { timeout: 10_000, interval: 25 },
    );

  beforeAll(async () => {
    infra = await createTestInfrastructure();
    service = await startAnalyticsService(infra);
  });

  afterAll(async () => {
    await service?.close();
    await infra?.cleanup();
  });

  it('answers health', async () => {
    await expect(infra.services.send(AnalyticsMessages.health, {})).resolves.toEqual({ ok: true });
  });

  it('feeds a like, a dislike and a removal in order, paged by cursor', async () => {
    const c = new ConversationFixture(infra, randomUUID());
    const m1 = randomUUID();
    const like = c.feedback(m1, 'like', null);
    const dislike = c.feedback(m1, 'dislike', 'like');
    const removal = c.feedback(m1, null, 'dislike');
    await c.publish(like, dislike, removal);

    const all = await feedOf(c.projectId, 3);
    expect(all.data.map((e) => [e.eventId, e.type])).toEqual([
      [like.eventId, 'feedback.given'],
      [dislike.eventId, 'feedback.given'],
      [removal.eventId, 'feedback.removed'],
    ]);
    expect(all.data[1]).toEqual({
      cursor: all.data[1]!.cursor,
      eventId: dislike.eventId,
      type: 'feedback.given',
      occurredAt: dislike.occurredAt,
      conversationId: c.conversationId,
      data: { messageId: m1, feedback: 'dislike', previous: 'like' },
    });
    expect(all.nextCursor).toBe(all.data[2]!.cursor);

    const first = await list(c.projectId, { limit: 2 });
    expect(first.data.map((e) => e.eventId)).toEqual([like.eventId, dislike.eventId]);
    expect(first.nextCursor).toBe(first.data[1]!.cursor);
    const second = await list(c.projectId, { limit: 2, after: first.nextCursor! });
    expect(second.data.map((e) => e.eventId)).toEqual([removal.eventId]);
    const caughtUp = await list(c.projectId, { limit: 2, after: second.nextCursor! });
    expect(caughtUp).toEqual({ data: [], nextCursor: second.nextCursor });
    expect(await list(randomUUID())).toEqual({ data: [], nextCursor: null });
  });

  it('filters by feed type or category and keeps the conversation flow', async () => {
    const c = new ConversationFixture(infra, randomUUID());
    const reply = randomUUID();
    const events = [
      c.event({ type: 'ConversationStarted', data: { projectId: c.projectId, visitorId: randomUUID(), pageUrl: 'https://example.com/' } }),
      c.event({ type: 'UserMessagePosted', data: { messageId: randomUUID(), content: 'hello', pageContext: null } }),
      c.event({ type: 'AssistantReplyStarted', data: { messageId: reply, assistantId: null } }),
      c.event({
        type: 'AssistantReplyCompleted',
        data: {
          messageId: reply,
          text: 'hi',
          finishReason: 'stop',
          usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4, reasoningTokens: 0, cachedInputTokens: 0 },
        },
      }),
      c.feedback(reply, 'like', null),
      c.feedback(reply, null, 'like'),
      c.event({ type: 'ConversationClosed', data: { closeReason: null } }),
    ];
    await c.publish(...events);

    const all = await feedOf(c.projectId, 6);
    expect(all.data.map((e) => e.type)).toEqual([
      'conversation.started',
      'message.posted',
      'reply.completed',
      'feedback.given',
      'feedback.removed',
      'conversation.closed',
    ]);
    const removed = await list(c.projectId, { type: 'feedback.removed' });
    expect(removed.data.map((e) => e.eventId)).toEqual([events[5]!.eventId]);
    const feedback = await list(c.projectId, { type: 'feedback' });
    expect(feedback.data.map((e) => e.eventId)).toEqual([events[4]!.eventId, events[5]!.eventId]);
    const afterFirst = await list(c.projectId, { type: 'feedback', after: feedback.data[0]!.cursor });
    expect(afterFirst.data.map((e) => e.eventId)).toEqual([events[5]!.eventId]);
    expect((await list(c.projectId, { type: 'nothing.like.this' })).data).toEqual([]);
  });

  it('rejects a cursor it never issued', async () => {
    await expect(list(randomUUID(), { after: 'not-a-cursor' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('summarises feedback by each message’s latest value, under the UTC day it was given: the days add up to the totals', async () => {
    const c = new ConversationFixture(infra, randomUUID());
    const [m1, m2, m3, m4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await c.publish(
      c.feedback(m1, 'like', null, '2026-03-01T23:59:00.000Z'),
      c.feedback(m1, 'dislike', 'like', '2026-03-02T00:01:00.000Z'),
      c.feedback(m2, 'like', null, '2026-03-02T09:00:00.000Z'),
      c.feedback(m2, null, 'like', '2026-03-02T09:05:00.000Z'),
      c.feedback(m3, 'like', null, '2026-03-03T12:00:00.000Z'),
      c.feedback(m4, 'dislike', null, '2026-03-03T12:30:00.000Z'),
    );
    await feedOf(c.projectId, 6);
    const answer = await summary(c.projectId);
    expect(answer).toEqual({
      projectId: c.projectId,
      likes: 1,
      dislikes: 2,
      removals: 1,
      // m1's like of the 1st became a dislike on the 2nd; m2's like was cleared the same day.
      byDay: [
        { day: '2026-03-02', likes: 0, dislikes: 1, removals: 1 },
        { day: '2026-03-03', likes: 1, dislikes: 1, removals: 0 },
      ],
    });
    for (const column of ['likes', 'dislikes', 'removals'] as const) {
      expect(answer.byDay.reduce((sum, day) => sum + day[column], 0)).toBe(answer[column]);
    }
  });

  it('ignores a duplicate delivery of an event', async () => {
    const c = new ConversationFixture(infra, randomUUID());
    const m1 = randomUUID();
    const like = c.feedback(m1, 'like', null);
    const removal = c.feedback(m1, null, 'like');
    await c.publish(like, removal);
    await feedOf(c.projectId, 2);
    const before = await summary(c.projectId);

    // The outbox relay may publish an event again after the stream's dedup window: a new msg id.
    await infra.eventStream.publish(eventSubject(like.type), like, `${like.eventId}-again`);
    await infra.eventStream.publish(eventSubject(removal.type), removal, `${removal.eventId}-again`);
    await c.publish(removal);
    const marker = c.event({ type: 'ConversationClosed', data: { closeReason: null } });
    await c.publish(marker);

    const after = await feedOf(c.projectId, 3);
    expect(after.data.map((e) => e.eventId)).toEqual([like.eventId, removal.eventId, marker.eventId]);
    expect(await summary(c.projectId)).toEqual(before);
    expect(before).toMatchObject({ likes: 0, dislikes: 0, removals: 1 });
  });

  it('keeps projects apart', async () => {
    const a = new ConversationFixture(infra, randomUUID());
    const b = new ConversationFixture(infra, randomUUID());
    await a.publish(a.feedback(randomUUID(), 'like', null), a.feedback(randomUUID(), 'like', null));
    await b.publish(b.feedback(randomUUID(), 'dislike', null));
    await feedOf(a.projectId, 2);
    await feedOf(b.projectId, 1);

    expect((await list(a.projectId)).data).toHaveLength(2);
    expect((await list(b.projectId)).data.map((e) => e.data.feedback)).toEqual(['dislike']);
    expect(await summary(a.projectId)).toMatchObject({ likes: 2, dislikes: 0 });
    expect(await summary(b.projectId)).toMatchObject({ likes: 0, dislikes: 1 });
  });

  it('resumes the durable consumer after a restart, without duplicates', async () => {
    const c = new ConversationFixture(infra, randomUUID());
    const m1 = randomUUID();
    const m2 = randomUUID();
    const beforeStop = [c.feedback(m1, 'like', null), c.feedback(m2, 'like', null)];
    await c.publish(...beforeStop);
    await feedOf(c.projectId, 2);

    await service.close();
    const whileStopped = [c.feedback(m1, 'dislike', 'like'), c.feedback(m2, null, 'like')];
    await c.publish(...whileStopped);
    service = await startAnalyticsService(infra);

    const page = await feedOf(c.projectId, 4);
    expect(page.data.map((e) => e.eventId)).toEqual([...beforeStop, ...whileStopped].map((e) => e.eventId));
    const cursors = page.data.map((e) => e.cursor);
    expect([...cursors].sort()).toEqual(cursors);
    expect(new Set(cursors).size).toBe(4);
    expect(await summary(c.projectId)).toMatchObject({ likes: 0, dislikes: 1, removals: 1 });
  });
});
