import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredEvent } from '@palaver/contracts';
import type { DocumentStore, EventStream, StreamMessage } from '@palaver/platform';
import { createTestInfrastructure } from '@palaver/platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FeedbackConsumer } from '../consumers/feedback.consumer';
import { encodeCursor } from '../domain/feed.cursor';
import { ConversationStatsRepository } from '../repositories/conversation-stats.repository';
import { FeedRepository } from '../repositories/feed.repository';
import { FeedbackDayRepository } from '../repositories/feedback-day.repository';
import { MessageFeedbackRepository } from '../repositories/message-feedback.repository';
import { UnansweredRepository } from '../repositories/unanswered.repository';
import { FeedService } from '../services/feed.service';
import { FeedbackSummaryService } from '../services/feedback-summary.service';
import { AnalyticsProjection } from './analytics.projection';
import { InsightsProjection } from './insights.projection';

/** The projection straight on the document store: retries after a failure part-way through. */
describe('analytics projection', () => {
  let infra: Awaited<ReturnType<typeof createTestInfrastructure>>;
  let feedRepo: FeedRepository;
  let days: FeedbackDayRepository;
  let projection: AnalyticsProjection;
  let feed: FeedService;
  let summaries: FeedbackSummaryService;

  beforeAll(async () => {
    infra = await createTestInfrastructure();
    feedRepo = new FeedRepository(infra.documents);
    days = new FeedbackDayRepository(infra.documents);
    const messages = new MessageFeedbackRepository(infra.documents);
    projection = new AnalyticsProjection(feedRepo, messages, days, infra.documents);
    feed = new FeedService(feedRepo);
    summaries = new FeedbackSummaryService(messages, days);
  });

  afterAll(async () => {
    await infra?.cleanup();
  });

  let version = 0;
  const feedback = (
    projectId: string,
    messageId: string,
    value: 'like' | 'dislike' | null,
    previous: 'like' | 'dislike' | null,
  ): StoredEvent => ({
    eventId: randomUUID(),
    streamId: `conversation-${randomUUID()}`,
    version: ++version,
    type: 'MessageFeedbackGiven',
    projectId,
    occurredAt: '2026-04-10T12:00:00.000Z',
    data: { messageId, feedback: value, previous },
  });

  it('applies an event once however often it is applied', async () => {
    const projectId = randomUUID();
    const m = randomUUID();
    const like = feedback(projectId, m, 'like', null);
    const dislike = feedback(projectId, m, 'dislike', 'like');
    for (const e of [like, like, dislike, like, dislike]) await projection.apply(e);

    const page = await feed.listEvents({ projectId, limit: 10 });
    expect(page.data.map((e) => [e.eventId, e.cursor])).toEqual([
      [like.eventId, encodeCursor(1)],
      [dislike.eventId, encodeCursor(2)],
    ]);
    expect(await summaries.feedbackSummary({ projectId })).toEqual({
      projectId,
      likes: 0,
      dislikes: 1,
      removals: 0,
      byDay: [{ day: '2026-04-10', likes: 0, dislikes: 1, removals: 0 }],
    });
  });

  it("detaches an erased conversation's entries from every id that leads back, keeps the counts, and leaves no id in the files", async () => {
    const projectId = randomUUID();
    const conversationId = randomUUID();
    const visitorId = randomUUID();
    const messageId = randomUUID();
    const streamId = `conversation-${conversationId}`;
    const event = (type: string, data: unknown): StoredEvent => ({
      eventId: randomUUID(),
      streamId,
      version: ++version,
      type,
      projectId,
      occurredAt: '2026-04-11T12:00:00.000Z',
      data,
    });
    await projection.applyBatch([
      event('ConversationStarted', { projectId, visitorId, pageUrl: 'pv1:c2VhbGVk' }),
      event('UserMessagePosted', { messageId, content: 'pv1:c2VhbGVk', pageContext: null }),
      event('MessageFeedbackGiven', { messageId, feedback: 'like', previous: null }),
    ]);
    const before = await feed.listEvents({ projectId, limit: 10 });
    expect(before.data[0]).toMatchObject({ conversationId, data: { visitorId, pageUrl: null } });

    const erased = event('ConversationErased', { reason: 'request' });
    await projection.applyBatch([erased]);
    await projection.applyBatch([erased]);

    const after = await feed.listEvents({ projectId, limit: 10 });
    expect(after.data.map((e) => e.type)).toEqual(['conversation.started', 'message.posted', 'feedback.given']);
    const anonymousIds = new Set(after.data.map((e) => e.conversationId));
    expect(anonymousIds.size).toBe(1);
    expect(anonymousIds.has(conversationId)).toBe(false);
    expect(after.data.map((e) => e.data)).toEqual([{}, {}, { feedback: 'like', previous: null }]);
    expect((await summaries.feedbackSummary({ projectId })).likes).toBe(1);
    const files = await readdir(join(infra.dataDir, 'documents'));
    const text = (await Promise.all(files.map((f) => readFile(join(infra.dataDir, 'documents', f), 'utf8')))).join('');
    for (const id of [conversationId, visitorId, messageId]) expect(text).not.toContain(id);
  });

  it('numbers the feed on from its last entry, also when another instance appended meanwhile', async () => {
    const projectId = randomUUID();
    const events = Array.from({ length: 6 }, () => feedback(projectId, randomUUID(), 'like', null));
    // Two instances of the service on one store: each knows the end of the feed it last wrote.
    const other = new AnalyticsProjection(
      new FeedRepository(infra.documents),
      new MessageFeedbackRepository(infra.documents),
      days,
      infra.documents,
    );
    await projection.apply(events[0]!);
    await projection.apply(events[1]!);
    await other.apply(events[2]!); // reads the end (2) from the feed
    await projection.apply(events[3]!); // believes the end is 2: its number is taken, so it reads the end again
    await other.apply(events[3]!); // a redelivery keeps its first number
    await other.apply(events[4]!);
    await projection.apply(events[5]!);
    // A new instance (a restart) continues from the stored end.
    const restarted = new FeedRepository(infra.documents);
    await restarted.append({
      eventId: randomUUID(),
      projectId,
      type: 'conversation.started',
      category: 'conversation',
      conversationId: randomUUID(),
      occurredAt: '2026-04-10T12:00:00.000Z',
      data: {},
    });

    const page = await feed.listEvents({ projectId, limit: 10 });
    expect(page.data.map((e) => e.cursor)).toEqual([1, 2, 3, 4, 5, 6, 7].map(encodeCursor));
    expect(page.data.slice(0, 6).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
  });

  it('applies a batch in order: its entries written together, feedback in its place, redelivered events once', async () => {
    const projectId = randomUUID();
    const posted = (content: string): StoredEvent => ({
      eventId: randomUUID(),
      streamId: `conversation-${randomUUID()}`,
      version: ++version,
      type: 'UserMessagePosted',
      projectId,
      occurredAt: '2026-04-10T12:00:00.000Z',
      data: { messageId: randomUUID(), content, pageContext: null },
    });
    const [a, b, c, d] = [posted('a'), posted('b'), posted('c'), posted('d')];
    const like = feedback(projectId, randomUUID(), 'like', null);
    const otherProject = posted('elsewhere');
    otherProject.projectId = randomUUID();
    const writes = vi.spyOn(infra.documents.collection('analytics_events'), 'insertMany');
    await projection.applyBatch([a, b, like, c, otherProject, d]);
    await projection.applyBatch([b, like, c, d]); // a redelivery of part of it changes nothing

    const page = await feed.listEvents({ projectId, limit: 10 });
    expect(page.data.map((e) => [e.eventId, e.cursor])).toEqual([a, b, like, c, d].map((e, i) => [e.eventId, encodeCursor(i + 1)]));
    expect((await feed.listEvents({ projectId: otherProject.projectId, limit: 10 })).data.map((e) => e.eventId)).toEqual([
      otherProject.eventId,
    ]);
    expect(writes.mock.calls.map(([docs]) => docs.length)).toEqual([2, 2, 1]); // [a, b], then [c, d] and the other project's
    expect((await summaries.feedbackSummary({ projectId })).likes).toBe(1);
    writes.mockRestore();
  });

  it('does not count a day twice when a retry follows a crash after the increment', async () => {
    const projectId = randomUUID();
    const removal = feedback(projectId, randomUUID(), null, 'like');
    // As if the first delivery died right after adding to the day, before writing the feed entry.
    await days.add(projectId, '2026-04-10', removal.eventId, { likes: 0, dislikes: 0, removals: 1 });

    await projection.apply(removal);
    await projection.apply(removal);
    expect((await feed.listEvents({ projectId, limit: 10 })).data.map((e) => e.eventId)).toEqual([removal.eventId]);
    expect(await summaries.feedbackSummary({ projectId })).toMatchObject({
      removals: 1,
      byDay: [{ day: '2026-04-10', likes: 0, dislikes: 0, removals: 1 }],
    });
  });

  /** The test store, with `sync` replaced. */
  const storeSyncing = (sync: () => Promise<void>): DocumentStore => ({
    collection: (name, indexes, options) => infra.documents.collection(name, indexes, options),
    sync,
    compact: () => infra.documents.compact(),
    close: async () => {},
  });

  it("puts a feedback event's feed entry on disk before its day lets go of it (so a crash cannot count it twice)", async () => {
    const steps: string[] = [];
    const documents = storeSyncing(async () => {
      steps.push('sync');
      await infra.documents.sync();
    });
    const feedRepository = new FeedRepository(documents);
    const dayRepository = new FeedbackDayRepository(documents);
    const append = feedRepository.append.bind(feedRepository);
    vi.spyOn(feedRepository, 'append').mockImplementation(async (entry) => {
      steps.push('feed entry');
      return append(entry);
    });
    const settle = dayRepository.settle.bind(dayRepository);
    vi.spyOn(dayRepository, 'settle').mockImplementation(async (...args) => {
      steps.push('day settled');
      return settle(...args);
    });
    const own = new AnalyticsProjection(feedRepository, new MessageFeedbackRepository(documents), dayRepository, documents);
    await own.apply(feedback(randomUUID(), randomUUID(), 'like', null));
    expect(steps).toEqual(['feed entry', 'sync', 'day settled']);
  });

  it('acknowledges a batch only once the documents are synced; what it wrote is readable before', async () => {
    let releaseSync: () => void = () => undefined;
    let syncing = false;
    const documents = storeSyncing(
      () =>
        new Promise<void>((resolve) => {
          syncing = true;
          releaseSync = resolve;
        }),
    );
    let handler: ((messages: StreamMessage[]) => Promise<void>) | null = null;
    const stream = {
      subscribeBatches: async (_durable: string, _filter: string, batchHandler: typeof handler) => {
        handler = batchHandler;
        return { stop: async () => {} };
      },
    } as unknown as EventStream;
    const feedRepository = new FeedRepository(documents);
    const own = new AnalyticsProjection(
      feedRepository,
      new MessageFeedbackRepository(documents),
      new FeedbackDayRepository(documents),
      documents,
    );
    const insights = new InsightsProjection(new ConversationStatsRepository(documents), new UnansweredRepository(documents), documents);
    const consumer = new FeedbackConsumer(stream, own, insights, documents);
    await consumer.onApplicationBootstrap();
    const projectId = randomUUID();
    const event: StoredEvent = {
      eventId: randomUUID(),
      streamId: `conversation-${randomUUID()}`,
      version: ++version,
      type: 'ConversationClosed',
      projectId,
      occurredAt: '2026-04-10T12:00:00.000Z',
      data: { closeReason: null },
    };
    let acknowledged = false;
    const handled = handler!([{ subject: 'conversation.evt.closed', payload: event, seq: 1 }]).then(() => {
      acknowledged = true;
    });
    await vi.waitFor(async () => expect((await new FeedService(feedRepository).listEvents({ projectId, limit: 10 })).data).toHaveLength(1));
    // The batch waits on the sync (held): not acknowledged until it is done.
    await vi.waitFor(() => expect(syncing).toBe(true));
    expect(acknowledged).toBe(false);
    releaseSync();
    await handled;
    expect(acknowledged).toBe(true);
    await consumer.onApplicationShutdown();
  });

  it('skips a malformed event without failing', async () => {
    const projectId = randomUUID();
    await expect(
      projection.apply({ ...feedback(projectId, randomUUID(), 'like', null), data: { feedback: 'love' } }),
    ).resolves.toBeUndefined();
    await expect(projection.apply('not an event')).resolves.toBeUndefined();
    expect((await feed.listEvents({ projectId, limit: 10 })).data).toEqual([]);
  });
});
