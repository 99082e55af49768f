import { randomUUID } from 'node:crypto';
import {
  ALL_CONVERSATION_EVENTS,
  AppError,
  eventSubject,
  GENERATE_REPLY_JOB,
  type GenerateReplyJob,
  INFERENCE_QUEUE,
  ConversationMessages as M,
  type StoredEvent,
  ZERO_USAGE,
} from '@palaver/contracts';
import { type Job, ManualClock, type RunningService, type StreamMessage } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startConversationService } from './index';
import { ConversationRepository } from './repositories/conversation.repository';
import { ConversationCipher } from './repositories/conversation-cipher';

const REPLY_TIMEOUT_MS = 60_000;

let clock: ManualClock;
let infra: TestInfrastructure;
let service: RunningService | null;
let jobs: Job[];
let projectId: string;
let visitorId: string;

beforeEach(async () => {
  clock = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
  infra = await createTestInfrastructure({ clock, config: { REPLY_TIMEOUT_MS } });
  service = await startConversationService(infra);
  jobs = [];
  await infra.jobs.process(INFERENCE_QUEUE, async (job) => {
    jobs.push(job);
  });
  projectId = randomUUID();
  visitorId = randomUUID();
});

afterEach(async () => {
  await service?.close();
  await infra.cleanup();
});

const send: TestInfrastructure['services']['send'] = (message, request) => infra.services.send(message, request);

/** The AppError a call fails with. */
const failure = async (call: Promise<unknown>): Promise<AppError> => {
  try {
    await call;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
};

/** How long a poll waits for a job or an event delivered asynchronously, and how often it looks. */
const POLL = { timeout: 5_000, interval: 20 } as const;

/**
 * Resolves once every job queued so far has reached the test's processor: the queue is FIFO, so a
 * marker job enqueued now arrives after all of them. The marker is then taken out of `jobs`.
 */
const settleJobs = async (): Promise<void> => {
  const marker = randomUUID();
  await infra.jobs.enqueue(INFERENCE_QUEUE, 'test-marker', null, { jobId: marker });
  await vi.waitFor(() => expect(jobs.map((j) => j.id)).toContain(marker), POLL);
  jobs.splice(
    jobs.findIndex((j) => j.id === marker),
    1,
  );
};

const scope = (over: { projectId?: string; visitorId?: string } = {}) => ({ projectId, visitorId, ...over });

const create = (pageUrl: string | null = null, over: { projectId?: string; visitorId?: string } = {}) =>
  send(M.create, { ...scope(over), pageUrl });

const post = (conversationId: string, content: string, over: Record<string, unknown> = {}) =>
  send(M.postMessage, {
    ...scope(),
    conversationId,
    content,
    pageContext: null,
    assistantMessageId: randomUUID(),
    assistantId: null,
    ...over,
  });

const complete = (conversationId: string, messageId: string, text: string) =>
  send(M.completeReply, { projectId, conversationId, messageId, text, finishReason: 'stop', usage: ZERO_USAGE });

/** Posts and completes the reply: one whole exchange. */
const exchange = async (conversationId: string, content: string, answer: string) => {
  const outcome = await post(conversationId, content);
  if (outcome.kind !== 'reply') throw new Error('expected a reply');
  await complete(conversationId, outcome.assistantMessageId, answer);
  return outcome;
};

const get = (conversationId: string, over: { projectId?: string; visitorId?: string } = {}) =>
  send(M.get, { ...scope(over), conversationId });

const listMessages = (conversationId: string, query: Record<string, unknown> = {}) =>
  send(M.listMessages, { ...scope(), conversationId, query: query as never });

const list = (query: Record<string, unknown> = {}) => send(M.list, { ...scope(), query: query as never });

describe('conversation service', () => {
  it('answers health', async () => {
    expect(await send(M.health, {})).toEqual({ ok: true });
  });

  it('creates an open conversation with no messages, listed without messages', async () => {
    const created = await create('https://shop.example/');
    expect(created).toMatchObject({
      object: 'conversation',
      status: 'open',
      closedAt: null,
      closeReason: null,
      title: null,
      isHumanHandled: false,
      messages: [],
      createdAt: '2026-03-01T10:00:00.000Z',
      lastInteractionAt: '2026-03-01T10:00:00.000Z',
    });
    const listed = await list();
    expect(listed).toMatchObject({ object: 'list', total: 1, limit: 10, offset: 0 });
    expect(listed.data[0]).toMatchObject({ id: created.id, lastMessage: null });
    expect('messages' in listed.data[0]!).toBe(false);
  });

  it("posts a message, starts the reply and enqueues the job with the recent history and the gateway's reply channel", async () => {
    const { id } = await create();
    await exchange(id, 'How much is the blue mug?', 'It costs 12 EUR.');
    clock.advance(1_000);
    const assistantMessageId = randomUUID();
    const outcome = await post(id, 'Do you ship to Norway?', {
      assistantMessageId,
      assistantId: null,
      pageContext: { url: 'https://shop.example/mug', title: 'Blue mug', textSelection: 'ship', content: 'Mug page' },
      replyTo: 'replies.gateway-1',
    });
    expect(outcome).toMatchObject({
      kind: 'reply',
      assistantMessageId,
      userMessage: {
        object: 'message',
        chatId: id,
        role: 'user',
        status: 'complete',
        error: null,
        feedback: null,
        feedbackAt: null,
        parts: [{ type: 'text', text: 'Do you ship to Norway?' }],
        metadata: { humanAgent: null, pageUrl: 'https://shop.example/mug', pageTitle: 'Blue mug', textSelection: 'ship' },
      },
    });

    const job = await vi.waitFor(() => {
      const queued = jobs.find((j) => j.id === assistantMessageId);
      expect(queued).toBeDefined();
      return queued!;
    }, POLL);
    expect(job.name).toBe(GENERATE_REPLY_JOB);
    expect(job.data as GenerateReplyJob).toEqual({
      projectId,
      conversationId: id,
      assistantMessageId,
      assistantId: null,
      pageContext: { url: 'https://shop.example/mug', title: 'Blue mug', textSelection: 'ship', content: 'Mug page' },
      history: [
        { role: 'user', content: 'How much is the blue mug?' },
        { role: 'assistant', content: 'It costs 12 EUR.' },
        { role: 'user', content: 'Do you ship to Norway?' },
      ],
      replyTo: 'replies.gateway-1',
    });

    const conversation = await get(id);
    expect(conversation.title).toBe('How much is the blue mug?');
    expect(conversation.messages!.map((m) => [m.role, m.status, m.parts[0]!.text, m.title])).toEqual([
      ['user', 'complete', 'How much is the blue mug?', 'How much is the blue mug?'],
      ['assistant', 'complete', 'It costs 12 EUR.', 'How much is the blue mug?'],
      ['user', 'complete', 'Do you ship to Norway?', 'How much is the blue mug?'],
      ['assistant', 'streaming', '', 'How much is the blue mug?'],
    ]);
    expect(conversation.lastInteractionAt).toBe('2026-03-01T10:00:01.000Z');
  });

  it('queues no reply job for a message that asks for a person: the handoff notice is the answer', async () => {
    const { id } = await create();
    const outcome = await post(id, 'I want to talk to a human', { handoffTriggers: ['talk to a human'] });
    expect(outcome.kind).toBe('handoff');
    // A job would have been queued during the command, before its answer: it would reach the processor before the marker.
    await settleJobs();
    expect(jobs).toEqual([]);
  });

  it('when the reply cannot be queued, records it failed and answers SERVICE_UNAVAILABLE; the next message is answered', async () => {
    const { id } = await create();
    vi.spyOn(infra.jobs, 'enqueue').mockRejectedValueOnce(new Error('queue unreachable'));
    const error = await failure(post(id, 'Hello?'));
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    const conversation = await get(id);
    expect(conversation.messages!.map((m) => [m.role, m.status, m.error])).toEqual([
      ['user', 'complete', null],
      ['assistant', 'error', 'the reply could not be queued'],
    ]);

    const outcome = await post(id, 'Hello again?');
    expect(outcome.kind).toBe('reply');
    await vi.waitFor(() => expect(jobs).toHaveLength(1), POLL);
  });

  it('refuses a message while the reply streams, and after the reply timeout fails it and goes on', async () => {
    const { id } = await create();
    const first = await post(id, 'First');
    const busy = await failure(post(id, 'Second'));
    expect(busy.code).toBe('CONFLICT');
    expect(busy.details).toMatchObject({ resource: 'message', conflictingField: 'status' });

    clock.advance(REPLY_TIMEOUT_MS + 1);
    const third = await post(id, 'Third');
    expect(third.kind).toBe('reply');
    const messages = (await listMessages(id)).data;
    expect(messages.map((m) => [m.role, m.status, m.error])).toEqual([
      ['user', 'complete', null],
      ['assistant', 'error', 'reply timed out'],
      ['user', 'complete', null],
      ['assistant', 'streaming', null],
    ]);
    // The late completion of the abandoned reply changes nothing.
    if (first.kind !== 'reply') throw new Error('expected a reply');
    await complete(id, first.assistantMessageId, 'too late');
    expect((await listMessages(id)).data[1]).toMatchObject({ status: 'error', parts: [{ type: 'text', text: '' }] });
  });

  it('completes a reply once (a repeat is a no-op) and fails a reply keeping its partial text', async () => {
    const { id } = await create();
    const outcome = await exchange(id, 'Hello', 'Hi there');
    if (outcome.kind !== 'reply') throw new Error('expected a reply');
    await complete(id, outcome.assistantMessageId, 'Different text');
    expect((await listMessages(id, { role: 'assistant' })).data[0]).toMatchObject({
      status: 'complete',
      parts: [{ type: 'text', text: 'Hi there' }],
    });

    const second = await post(id, 'Tell me more');
    if (second.kind !== 'reply') throw new Error('expected a reply');
    await send(M.failReply, {
      projectId,
      conversationId: id,
      messageId: second.assistantMessageId,
      error: 'The model is unavailable',
      partialText: 'Well, ',
    });
    const failed = (await listMessages(id, { status: 'error' })).data;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      id: second.assistantMessageId,
      error: 'The model is unavailable',
      parts: [{ type: 'text', text: 'Well, ' }],
    });

    const unknown = await failure(complete(id, randomUUID(), 'x'));
    expect(unknown.code).toBe('MESSAGE_NOT_FOUND');
  });

  it('records, overwrites and removes feedback on assistant messages only', async () => {
    const { id } = await create();
    const outcome = await exchange(id, 'Hello', 'Hi there');
    if (outcome.kind !== 'reply') throw new Error('expected a reply');
    const messageId = outcome.assistantMessageId;

    clock.advance(5_000);
    expect(await send(M.setFeedback, { ...scope(), messageId, feedback: 'like' })).toEqual({ feedback: 'like' });
    expect((await listMessages(id, { role: 'assistant' })).data[0]).toMatchObject({
      feedback: 'like',
      feedbackAt: '2026-03-01T10:00:05.000Z',
    });
    clock.advance(5_000);
    await send(M.setFeedback, { ...scope(), messageId, feedback: 'like' });
    expect((await listMessages(id, { role: 'assistant' })).data[0]!.feedbackAt).toBe('2026-03-01T10:00:10.000Z');
    await send(M.setFeedback, { ...scope(), messageId, feedback: 'dislike' });
    expect((await listMessages(id, { role: 'assistant' })).data[0]!.feedback).toBe('dislike');
    expect(await send(M.setFeedback, { ...scope(), messageId, feedback: null })).toEqual({ feedback: null });
    expect((await listMessages(id, { role: 'assistant' })).data[0]).toMatchObject({ feedback: null, feedbackAt: null });

    const onUser = await failure(send(M.setFeedback, { ...scope(), messageId: outcome.userMessage.id, feedback: 'like' }));
    expect(onUser.code).toBe('VALIDATION_ERROR');
    const otherVisitor = await failure(send(M.setFeedback, { ...scope({ visitorId: randomUUID() }), messageId, feedback: 'like' }));
    expect(otherVisitor.code).toBe('FORBIDDEN');
    const otherProject = await failure(send(M.setFeedback, { ...scope({ projectId: randomUUID() }), messageId, feedback: 'like' }));
    expect(otherProject.code).toBe('MESSAGE_NOT_FOUND');
    expect(otherProject.details).toEqual({ messageId });
    const unknownId = randomUUID();
    const unknown = await failure(send(M.setFeedback, { ...scope(), messageId: unknownId, feedback: 'like' }));
    expect(unknown.code).toBe('MESSAGE_NOT_FOUND');
  });

  it('closes (twice is fine) and then refuses messages', async () => {
    const { id } = await create();
    clock.advance(2_000);
    expect(await send(M.close, { ...scope(), conversationId: id, closeReason: 'resolved' })).toEqual({
      success: true,
      message: 'Conversation closed',
    });
    expect(await send(M.close, { ...scope(), conversationId: id, closeReason: null })).toMatchObject({ success: true });
    expect(await get(id)).toMatchObject({ status: 'closed', closedAt: '2026-03-01T10:00:02.000Z', closeReason: 'resolved' });
    const refused = await failure(post(id, 'Hello?'));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.details).toMatchObject({ resource: 'conversation', conflictingField: 'status' });
  });

  it('hands off to a human agent: visitor messages are queued, the agent posts', async () => {
    const { id } = await create();
    await exchange(id, 'I want a human', 'Let me find someone.');
    const handed = await send(M.handoff, { projectId, conversationId: id, humanAgent: { name: 'Ada', image: null } });
    expect(handed).toMatchObject({ id, isHumanHandled: true, humanAgent: { name: 'Ada', image: null } });
    expect(handed.messages).toHaveLength(2);

    const jobsBefore = jobs.length;
    const queued = await post(id, 'Hello Ada?');
    expect(queued).toMatchObject({ kind: 'queued', userMessage: { role: 'user', status: 'complete' } });
    const agentMessage = await send(M.postAgentMessage, { projectId, conversationId: id, content: 'Hi, Ada here.' });
    expect(agentMessage).toMatchObject({
      role: 'human_agent',
      status: 'complete',
      chatId: id,
      metadata: { humanAgent: { name: 'Ada', image: null }, pageUrl: null, pageTitle: null, textSelection: null },
    });
    const conversation = await get(id);
    expect(conversation).toMatchObject({ isHumanHandled: true, humanAgent: { name: 'Ada', image: null } });
    expect(conversation.messages!.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'human_agent']);
    await settleJobs();
    expect(jobs.length).toBe(jobsBefore);

    const before = await create();
    const early = await failure(send(M.postAgentMessage, { projectId, conversationId: before.id, content: 'Hi' }));
    expect(early.code).toBe('CONFLICT');
  });

  it("releases every open conversation an agent holds, and only those (a revoked agent's)", async () => {
    const ada = { id: randomUUID(), name: 'Ada', image: null };
    const grace = { id: randomUUID(), name: 'Grace', image: null };
    const conversations = await Promise.all([1, 2, 3, 4].map(() => create()));
    const [heldA, heldB, closed, graces] = conversations.map((c) => c.id) as [string, string, string, string];
    for (const id of [heldA, heldB, closed]) await send(M.claim, { projectId, conversationId: id, humanAgent: ada, mode: 'take' });
    await send(M.claim, { projectId, conversationId: graces, humanAgent: grace, mode: 'take' });
    await send(M.close, { ...scope(), conversationId: closed, closeReason: null });
    const otherProject = randomUUID();
    const elsewhere = await create(null, { projectId: otherProject });
    await send(M.claim, { projectId: otherProject, conversationId: elsewhere.id, humanAgent: ada, mode: 'take' });

    const { released } = await send(M.releaseHeld, { projectId, humanAgentId: ada.id });
    expect(released.sort()).toEqual([heldA, heldB].sort());
    for (const id of [heldA, heldB]) {
      expect(await send(M.agentConversation, { projectId, conversationId: id })).toMatchObject({ handoff: 'none', humanAgent: null });
      expect(await post(id, 'anyone?')).toMatchObject({ kind: 'reply' });
    }
    expect(await send(M.agentConversation, { projectId, conversationId: graces })).toMatchObject({ handoff: 'claimed', humanAgent: grace });
    expect(await send(M.agentConversation, { projectId: otherProject, conversationId: elsewhere.id })).toMatchObject({
      handoff: 'claimed',
    });
    expect(await send(M.releaseHeld, { projectId, humanAgentId: ada.id })).toEqual({ released: [] });
  });

  it('keeps conversations to their owner: another project does not find them, another visitor is forbidden', async () => {
    const { id } = await create();
    const otherProject = { projectId: randomUUID() };
    const otherVisitor = { visitorId: randomUUID() };

    /** The visitor's own calls on the conversation, made with `who` in place of its project or its visitor. */
    const callsAs = (who: { projectId?: string; visitorId?: string }) => [
      get(id, who),
      send(M.listMessages, { ...scope(who), conversationId: id, query: {} as never }),
      send(M.postMessage, {
        ...scope(who),
        conversationId: id,
        content: 'x',
        pageContext: null,
        assistantMessageId: randomUUID(),
        assistantId: null,
      }),
      send(M.close, { ...scope(who), conversationId: id, closeReason: null }),
    ];

    for (const call of [
      ...callsAs(otherProject),
      send(M.handoff, { ...otherProject, conversationId: id, humanAgent: { name: null, image: null } }),
    ]) {
      const error = await failure(call);
      expect(error.code).toBe('CONVERSATION_NOT_FOUND');
      expect(error.details).toEqual({ conversationId: id });
    }
    for (const call of callsAs(otherVisitor)) {
      expect((await failure(call)).code).toBe('FORBIDDEN');
    }
    expect((await send(M.list, { ...scope(otherVisitor), query: {} as never })).total).toBe(0);
    const missing = randomUUID();
    expect((await failure(get(missing))).details).toEqual({ conversationId: missing });
  });

  it('lists with every order, direction, filter and page', async () => {
    const a = await create();
    await exchange(a.id, 'Banana bread recipe', 'Sure.');
    clock.advance(1_000);
    const b = await create();
    await exchange(b.id, 'Apple pie', 'Of course.');
    clock.advance(1_000);
    const c = await create();
    clock.advance(1_000);
    await send(M.close, { ...scope(), conversationId: a.id, closeReason: null });
    clock.advance(1_000);
    await send(M.handoff, { projectId, conversationId: b.id, humanAgent: { name: 'Ada', image: null } });
    // Another visitor's conversation never shows.
    await create(null, { visitorId: randomUUID() });

    const ids = async (query: Record<string, unknown>) => (await list(query)).data.map((d) => d.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ orderBy: 'lastInteractionAt', orderDir: 'asc' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ orderBy: 'createdAt', orderDir: 'asc' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ orderBy: 'updatedAt', orderDir: 'desc' })).toEqual([b.id, a.id, c.id]);
    expect(await ids({ orderBy: 'title', orderDir: 'asc' })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ orderBy: 'title', orderDir: 'desc' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ orderBy: 'status', orderDir: 'desc' })).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect((await ids({ orderBy: 'status', orderDir: 'desc' }))[0]).not.toBe(a.id);
    expect((await ids({ orderBy: 'status', orderDir: 'asc' })).at(-1)).not.toBe(a.id);
    expect((await ids({ orderBy: 'isHumanHandled', orderDir: 'desc' }))[0]).toBe(b.id);
    expect((await ids({ orderBy: 'isHumanHandled', orderDir: 'asc' })).at(-1)).toBe(b.id);
    expect((await ids({ orderBy: 'closedAt', orderDir: 'desc' }))[0]).toBe(a.id);
    expect(await ids({ orderBy: 'id', orderDir: 'asc' })).toEqual([a.id, b.id, c.id].sort());
    expect(await ids({ status: 'closed' })).toEqual([a.id]);
    expect(await ids({ status: 'open' })).toEqual([c.id, b.id]);

    const page = await list({ limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.data.map((d) => d.id)).toEqual([b.id]);
    expect(page.data[0]!.lastMessage).toMatchObject({ role: 'assistant', parts: [{ type: 'text', text: 'Of course.' }] });
    expect(page.data[0]).toMatchObject({ isHumanHandled: true, humanAgent: { name: 'Ada', image: null }, title: 'Apple pie' });
  });

  it('lists messages oldest to newest with role and status filters, limit and offset', async () => {
    const { id } = await create();
    await exchange(id, 'One', 'Reply one');
    await exchange(id, 'Two', 'Reply two');
    await post(id, 'Three');

    const texts = async (query: Record<string, unknown>) => (await listMessages(id, query)).data.map((m) => m.parts[0]!.text);
    expect(await texts({})).toEqual(['One', 'Reply one', 'Two', 'Reply two', 'Three', '']);
    expect(await texts({ role: 'user' })).toEqual(['One', 'Two', 'Three']);
    expect(await texts({ status: 'streaming' })).toEqual(['']);
    expect(await texts({ role: 'assistant', status: 'complete' })).toEqual(['Reply one', 'Reply two']);
    expect(await texts({ limit: 2, offset: 1 })).toEqual(['Reply one', 'Two']);
    expect(await texts({ offset: 4 })).toEqual(['Three', '']);
    const listed = await listMessages(id);
    expect(Object.keys(listed).sort()).toEqual(['data', 'object']);
    expect('title' in listed.data[0]!).toBe(false);
  });

  it('publishes every event to the stream in order, under its event id', async () => {
    const received: StreamMessage[] = [];
    const subscription = await infra.eventStream.subscribe('conversation-int-test', ALL_CONVERSATION_EVENTS, async (m) => {
      received.push(m);
    });
    const { id } = await create();
    const outcome = await exchange(id, 'Hello', 'Hi');
    if (outcome.kind !== 'reply') throw new Error('expected a reply');
    await send(M.setFeedback, { ...scope(), messageId: outcome.assistantMessageId, feedback: 'like' });
    await send(M.close, { ...scope(), conversationId: id, closeReason: null });

    const types = [
      'ConversationStarted',
      'UserMessagePosted',
      'AssistantReplyStarted',
      'AssistantReplyCompleted',
      'MessageFeedbackGiven',
      'ConversationClosed',
    ];
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(types.length), POLL);
    await subscription.stop();
    expect(received.map((m) => m.subject)).toEqual(types.map(eventSubject));
    const payloads = received.map((m) => m.payload as StoredEvent);
    expect(payloads.map((p) => p.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(payloads.every((p) => p.streamId === `conversation-${id}` && p.projectId === projectId)).toBe(true);
    expect(payloads[4]!.data).toEqual({ messageId: outcome.assistantMessageId, feedback: 'like', previous: null });
    // Marked published at the relay's next checkpoint.
    await vi.waitFor(async () => expect(await infra.eventStore.pendingPublication(10)).toEqual([]));
  });

  it('recovers on startup: events appended but never published are projected and published', async () => {
    await service!.close();
    service = null;
    const conversationId = randomUUID();
    const messageId = randomUUID();
    const repository = new ConversationRepository(infra.eventStore, new ConversationCipher(infra.keys, infra.clock));
    await repository.append(
      conversationId,
      await repository.load(conversationId),
      [
        { type: 'ConversationStarted', data: { projectId, visitorId, pageUrl: null } },
        { type: 'UserMessagePosted', data: { messageId, content: 'Written before a crash', pageContext: null } },
      ],
      { projectId, occurredAt: clock.now().toISOString() },
    );
    expect(await infra.eventStore.pendingPublication(10)).toHaveLength(2);

    const received: StreamMessage[] = [];
    const subscription = await infra.eventStream.subscribe('conversation-recovery-test', ALL_CONVERSATION_EVENTS, async (m) => {
      received.push(m);
    });
    service = await startConversationService(infra);

    expect(await infra.eventStore.pendingPublication(10)).toEqual([]);
    const conversation = await get(conversationId);
    expect(conversation.title).toBe('Written before a crash');
    expect(conversation.messages!.map((m) => m.id)).toEqual([messageId]);
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(2), POLL);
    await subscription.stop();
    expect(received.map((m) => m.subject)).toEqual([eventSubject('ConversationStarted'), eventSubject('UserMessagePosted')]);
  });
});
