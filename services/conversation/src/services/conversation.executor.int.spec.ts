import { randomUUID } from 'node:crypto';
import { AppError, type StoredEvent } from '@palaver/contracts';
import type { DocumentStore, EventStore, EventStream, NewEvent } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONVERSATION, POST_HELLO, PROJECT, START, VISITOR } from '../testing/conversation.fixtures';
import { wire } from '../testing/conversation.wiring';
import { ConversationQueryService } from './conversation-query.service';

let infra: TestInfrastructure;
beforeEach(async () => {
  infra = await createTestInfrastructure();
});
afterEach(async () => {
  await infra.cleanup();
});

/** `inner` with some of its methods replaced. */
const eventStoreWith = (inner: EventStore, overrides: Partial<EventStore>): EventStore => ({
  append: (s, v, e) => inner.append(s, v, e),
  readStream: (s, v) => inner.readStream(s, v),
  pendingPublication: (l) => inner.pendingPublication(l),
  markPublished: (ids) => inner.markPublished(ids),
  close: () => inner.close(),
  ...overrides,
});

/** An event store where someone else appends `interloper` just before each of our next `times` appends. */
const racingStore = (inner: EventStore, interloper: () => Promise<unknown>, times: number): EventStore => {
  let left = times;
  return eventStoreWith(inner, {
    async append(streamId: string, expectedVersion: number, events: NewEvent[]): Promise<StoredEvent[]> {
      if (left > 0) {
        left -= 1;
        await interloper();
      }
      return inner.append(streamId, expectedVersion, events);
    },
  });
};

/** Another process handing the conversation (started, at version 1) to agent after agent; `count()` says how many. */
const anotherProcessReassigning = () => {
  let appended = 0;
  const reassign = () =>
    infra.eventStore.append(`conversation-${CONVERSATION}`, 1 + appended++, [
      {
        eventId: randomUUID(),
        type: 'HumanHandoffClaimed',
        data: { humanAgent: { id: null, name: `Agent ${appended}`, image: null } },
        projectId: PROJECT,
        occurredAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
  return { reassign, count: () => appended };
};

describe('ConversationExecutor', () => {
  it('decides again on the fresh stream after a concurrent append', async () => {
    const plain = wire(infra);
    await plain.executor.execute(START);
    const handoff = () =>
      plain.executor.execute({
        type: 'Claim',
        conversationId: CONVERSATION,
        projectId: PROJECT,
        humanAgent: { id: null, name: 'Ada', image: null },
        mode: 'take',
      });
    const racing = wire({ ...infra, eventStore: racingStore(infra.eventStore, handoff, 1) });

    const result = await racing.executor.execute(POST_HELLO);
    // Handed off meanwhile: the message is queued for the agent, no reply starts.
    expect(result.appended.map((e) => e.type)).toEqual(['UserMessagePosted']);
    expect(result.appended[0]!.version).toBe(3);
    expect((await infra.eventStore.readStream(`conversation-${CONVERSATION}`)).map((e) => e.type)).toEqual([
      'ConversationStarted',
      'HumanHandoffClaimed',
      'UserMessagePosted',
    ]);
    // Marked published at the relay's next checkpoint.
    await vi.waitFor(async () => expect(await infra.eventStore.pendingPublication(10)).toEqual([]));
  });

  it('gets through a burst of appends by another process (more conflicts than it used to allow)', async () => {
    const plain = wire(infra);
    await plain.executor.execute(START);
    const other = anotherProcessReassigning();
    const racing = wire({ ...infra, eventStore: racingStore(infra.eventStore, other.reassign, 8) });
    const result = await racing.executor.execute({
      type: 'Close',
      conversationId: CONVERSATION,
      projectId: PROJECT,
      visitorId: VISITOR,
      closeReason: null,
    });
    expect(other.count()).toBe(8);
    expect(result.appended.map((e) => e.type)).toEqual(['ConversationClosed']);
  });

  it('gives up with CONFLICT when the stream keeps moving', async () => {
    const plain = wire(infra);
    await plain.executor.execute(START);
    const other = anotherProcessReassigning();
    const racing = wire({ ...infra, eventStore: racingStore(infra.eventStore, other.reassign, 100) });
    const error = await racing.executor
      .execute({
        type: 'Claim',
        conversationId: CONVERSATION,
        projectId: PROJECT,
        humanAgent: { id: null, name: 'Ada', image: null },
        mode: 'take',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('CONFLICT');
    expect((error as AppError).details).toMatchObject({ resource: 'conversation', conflictingField: 'version' });
    expect(other.count()).toBe(10);
  });

  it('calls onAppended once the events are durable and before the read models are written, and not when nothing changed', async () => {
    const { executor, readModel } = wire(infra);
    await executor.execute(START);
    const seen: Array<{ stored: string[]; projected: number }> = [];
    const { appended } = await executor.execute(POST_HELLO, (executed) => {
      void (async () => {
        // Read at once, in the hook's turn: what the store holds, and what the read model held then.
        const projected = readModel.messages.count({ projectId: PROJECT, conversationId: CONVERSATION });
        const stored = await infra.eventStore.readStream(`conversation-${CONVERSATION}`);
        seen.push({ stored: stored.map((e) => e.eventId), projected: await projected });
      })();
      expect(executed.appended.map((e) => e.type)).toEqual(['UserMessagePosted', 'AssistantReplyStarted']);
    });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]!.stored.slice(-2)).toEqual(appended.map((e) => e.eventId));
    expect(seen[0]!.projected).toBe(0);
    expect(await readModel.messages.count({ projectId: PROJECT, conversationId: CONVERSATION })).toBe(2);

    const close = { type: 'Close', conversationId: CONVERSATION, projectId: PROJECT, visitorId: VISITOR, closeReason: null } as const;
    await executor.execute(close);
    const hook = vi.fn();
    expect((await executor.execute(close, hook)).appended).toEqual([]);
    expect(hook).not.toHaveBeenCalled();
  });

  it('holds the reads of the conversation and of its visitor made in the hook until the read models are written', async () => {
    const { executor, conversations, messages, repository, barrier } = wire(infra);
    const queries = new ConversationQueryService(conversations, messages, repository, barrier);
    await executor.execute(START);
    let reads: Promise<unknown[]> | undefined;
    await executor.execute(POST_HELLO, () => {
      // What a visitor who reloads as the reply's first fragment arrives asks for.
      reads = Promise.all([
        queries
          .listMessages({ projectId: PROJECT, visitorId: VISITOR, conversationId: CONVERSATION, query: { offset: 0 } })
          .then((page) => page.data.map((m) => m.status)),
        queries.get({ projectId: PROJECT, visitorId: VISITOR, conversationId: CONVERSATION }).then((c) => c.messages?.length),
        queries
          .list({ projectId: PROJECT, visitorId: VISITOR, query: { limit: 10, offset: 0, orderBy: 'updatedAt', orderDir: 'desc' } })
          .then((page) => page.data[0]?.lastMessage?.id ?? null),
      ]);
    });
    expect(await reads).toEqual([['complete', 'streaming'], 2, POST_HELLO.assistantMessageId]);
    // Nothing is held once the writes are done.
    expect(barrier.conversation(PROJECT, CONVERSATION)).toBeUndefined();
    expect(barrier.visitor(PROJECT, VISITOR)).toBeUndefined();
  });

  it('leaves the events of a failed projection pending (though published), and the relay projects them', async () => {
    const { executor, projector, relay, readModel } = wire(infra);
    await executor.execute(START);
    await vi.waitFor(async () => expect(await infra.eventStore.pendingPublication(10)).toEqual([]));
    vi.spyOn(projector, 'catchUp').mockRejectedValueOnce(new Error('disk full'));
    const { appended } = await executor.execute(POST_HELLO);
    expect((await infra.eventStore.pendingPublication(10)).map((e) => e.eventId)).toEqual(appended.map((e) => e.eventId));
    expect(await readModel.messages.count({ projectId: PROJECT, conversationId: CONVERSATION })).toBe(0);

    await relay.flush();
    expect(await infra.eventStore.pendingPublication(10)).toEqual([]);
    expect(await readModel.messages.count({ projectId: PROJECT, conversationId: CONVERSATION })).toBe(2);
  });

  it('marks events published only once the read models are synced, for every command of a checkpoint at once', async () => {
    const steps: string[] = [];
    const documents: DocumentStore = {
      collection: (name, indexes, options) => infra.documents.collection(name, indexes, options),
      compact: () => infra.documents.compact(),
      sync: async () => {
        steps.push('sync');
        await infra.documents.sync();
        steps.push('synced');
      },
      close: () => infra.documents.close(),
    };
    const eventStore = eventStoreWith(infra.eventStore, {
      markPublished: async (ids) => {
        steps.push(`mark ${ids.length}`);
        await infra.eventStore.markPublished(ids);
      },
    });
    // The stream takes both commands' events once both have run, so that they meet in one
    // checkpoint however slow the machine (a checkpoint comes 20 ms after the first events).
    let publish!: () => void;
    const bothRan = new Promise<void>((resolve) => (publish = resolve));
    const eventStream: EventStream = {
      deadLetterSubject: (durable) => infra.eventStream.deadLetterSubject(durable),
      publish: async (subject, payload, msgId) => {
        await bothRan;
        await infra.eventStream.publish(subject, payload, msgId);
      },
      subscribe: (durable, filter, handler) => infra.eventStream.subscribe(durable, filter, handler),
      subscribeBatches: (durable, filter, handler, maxBatch) => infra.eventStream.subscribeBatches(durable, filter, handler, maxBatch),
      close: () => infra.eventStream.close(),
    };
    const { executor } = wire({ ...infra, documents, eventStore, eventStream });
    await executor.execute(START);
    const { appended } = await executor.execute(POST_HELLO);
    expect(steps).toEqual([]);
    publish();
    await vi.waitFor(async () => expect(await infra.eventStore.pendingPublication(10)).toEqual([]));
    expect(steps).toEqual(['sync', 'synced', `mark ${1 + appended.length}`]);
  });
});
