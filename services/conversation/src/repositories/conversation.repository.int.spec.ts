import type { EventStore } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, PROJECT, REPLY_1, USER_1, VISITOR } from '../testing/conversation.fixtures';
import { ConversationRepository } from './conversation.repository';
import { ConversationCipher } from './conversation-cipher';

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
    const repository = new ConversationRepository(infra.eventStore, new ConversationCipher(infra.keys, infra.clock));
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
    repository = new ConversationRepository(store, new ConversationCipher(infra.keys, infra.clock));
    const started = await repository.append(CONVERSATION, await repository.load(CONVERSATION), [start], envelope);
    const { appended, after } = await repository.append(CONVERSATION, started.after, [posted(USER_1), posted(REPLY_1)], envelope);
    expect(appended.map((e) => e.version)).toEqual([2, 3]);
    expect(after.events.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(after.state.status !== 'none' && after.state.messages.length).toBe(2);
    expect((await repository.load(CONVERSATION)).events.map((e) => e.version)).toEqual([1, 2, 3]);
  });

  it('stores personal fields sealed, reads them opened, and reads them as erased once the key is gone', async () => {
    const cipher = new ConversationCipher(infra.keys, infra.clock);
    const repository = new ConversationRepository(infra.eventStore, cipher);
    const marker = 'MARKER-repository';
    const started = await repository.append(
      CONVERSATION,
      await repository.load(CONVERSATION),
      [{ type: 'ConversationStarted', data: { projectId: PROJECT, visitorId: VISITOR, pageUrl: `https://x.test/${marker}` } }],
      envelope,
    );
    const { appended, sealed } = await repository.append(
      CONVERSATION,
      started.after,
      [{ type: 'UserMessagePosted', data: { messageId: USER_1, content: marker, pageContext: { title: marker } } }],
      envelope,
    );
    expect(appended[0]!.data).toEqual({ messageId: USER_1, content: marker, pageContext: { title: marker } });
    expect(JSON.stringify(sealed)).not.toContain(marker);
    const raw = await infra.eventStore.readStream(`conversation-${CONVERSATION}`);
    expect(JSON.stringify(raw)).not.toContain(marker);
    expect(raw[1]!.data).toMatchObject({ messageId: USER_1 });

    const fresh = new ConversationRepository(infra.eventStore, new ConversationCipher(infra.keys, infra.clock));
    const loaded = await fresh.load(CONVERSATION);
    expect(loaded.events.map((e) => e.data)).toEqual([
      { projectId: PROJECT, visitorId: VISITOR, pageUrl: `https://x.test/${marker}` },
      { messageId: USER_1, content: marker, pageContext: { title: marker } },
    ]);

    await cipher.erase([CONVERSATION]);
    const afterErasure = await new ConversationRepository(infra.eventStore, new ConversationCipher(infra.keys, infra.clock)).load(
      CONVERSATION,
    );
    expect(afterErasure.events.map((e) => e.data)).toEqual([
      { projectId: PROJECT, visitorId: VISITOR, pageUrl: null },
      { messageId: USER_1, content: '', pageContext: null },
    ]);
  });
});
