import type { EventStore } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, PROJECT, REPLY_1, USER_1, VISITOR } from '../testing/conversation.fixtures';
import { ConversationRepository } from './conversation.repository';

let infra: TestInfrastructure;
beforeEach(async () => {
  infra = await createTestInfrastructure();
});
afterEach(async () => {
  await infra.cleanup();
});

const envelope = { projectId: PROJECT, occurredAt: '2026-01-01T00:00:00.000Z' };
const start = { type: 'ConversationStarted', data: { projectId: PROJECT, visitorId: VISITOR, pageUrl: null } } as const;
const posted = (messageId: string) => ({ type: 'UserMessagePosted', data: { messageId, content: 'Hi', pageContext: null } }) as const;

describe('ConversationRepository', () => {
  it('keeps each load and append consistent with the stream while its loads share one array', async () => {
    const repository = new ConversationRepository(infra.eventStore);
    const first = await repository.append(CONVERSATION, await repository.load(CONVERSATION), [start], envelope);
    const second = await repository.append(CONVERSATION, first.after, [posted(USER_1)], envelope);
    expect(second.appended.map((e) => e.version)).toEqual([2]);
    expect(second.after.events.map((e) => e.version)).toEqual([1, 2]);
    // The earlier load's events are a prefix of the stream: at most extended, never changed.
    expect(first.after.events.slice(0, 1).map((e) => e.version)).toEqual([1]);
    expect((await repository.load(CONVERSATION)).events.map((e) => e.version)).toEqual([1, 2]);
  });

  it('copies instead of appending twice when another load extended the array during an append', async () => {
    let repository: ConversationRepository;
    // A read (another request) loads the conversation between the store's append and its answer.
    const store: EventStore = {
      ...infra.eventStore,
      append: async (streamId, expected, events) => {
        const stored = await infra.eventStore.append(streamId, expected, events);
        await repository.load(CONVERSATION);
        return stored;
      },
      readStream: (streamId, from) => infra.eventStore.readStream(streamId, from),
    };
    repository = new ConversationRepository(store);
    const started = await repository.append(CONVERSATION, await repository.load(CONVERSATION), [start], envelope);
    const { appended, after } = await repository.append(CONVERSATION, started.after, [posted(USER_1), posted(REPLY_1)], envelope);
    expect(appended.map((e) => e.version)).toEqual([2, 3]);
    expect(after.events.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(after.state.status !== 'none' && after.state.messages.length).toBe(2);
    expect((await repository.load(CONVERSATION)).events.map((e) => e.version)).toEqual([1, 2, 3]);
  });
});
