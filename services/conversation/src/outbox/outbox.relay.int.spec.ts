import { eventSubject, type StoredEvent } from '@palaver/contracts';
import type { EventStream } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, PROJECT, REPLY_1, USER_1, VISITOR } from '../testing/conversation.fixtures';
import { wire } from '../testing/conversation.wiring';

let infra: TestInfrastructure;
beforeEach(async () => {
  infra = await createTestInfrastructure();
});
afterEach(async () => {
  await infra.cleanup();
});

/** An event stream that records what it is given and refuses the publications it is told to. */
class RecordingStream implements EventStream {
  readonly published: { subject: string; payload: StoredEvent; msgId: string }[] = [];
  failNext = 0;
  failAfter = Number.POSITIVE_INFINITY;
  async publish(subject: string, payload: unknown, msgId: string): Promise<void> {
    if (this.published.length >= this.failAfter && this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('stream unavailable');
    }
    this.published.push({ subject, payload: payload as StoredEvent, msgId });
  }
  subscribe(): never {
    throw new Error('not used');
  }
  subscribeBatches(): never {
    throw new Error('not used');
  }
  deadLetterSubject(): never {
    throw new Error('not used');
  }
  async close(): Promise<void> {}
}

const appendExchange = async (repository: ReturnType<typeof wire>['repository']) => {
  const { sealed } = await repository.append(
    CONVERSATION,
    await repository.load(CONVERSATION),
    [
      { type: 'ConversationStarted', data: { projectId: PROJECT, visitorId: VISITOR, pageUrl: null } },
      { type: 'UserMessagePosted', data: { messageId: USER_1, content: 'Hi', pageContext: null } },
      { type: 'AssistantReplyStarted', data: { messageId: REPLY_1, assistantId: null } },
    ],
    { projectId: PROJECT, occurredAt: '2026-01-01T00:00:00.000Z' },
  );
  return sealed;
};

describe('OutboxRelay', () => {
  it('projects (opened), publishes as stored (sealed) under the event id and marks published, in append order', async () => {
    const stream = new RecordingStream();
    const { relay, repository, readModel, messages } = wire({ ...infra, eventStream: stream });
    const appended = await appendExchange(repository);
    await relay.flush();
    expect(stream.published.map((p) => [p.subject, p.msgId])).toEqual(appended.map((e) => [eventSubject(e.type), e.eventId]));
    expect(stream.published.map((p) => p.payload)).toEqual(appended);
    expect((stream.published[1]!.payload as { data: { content: string } }).data.content).toMatch(/^pv1:/);
    expect((await messages.ofConversation(PROJECT, CONVERSATION))[0]!.parts).toEqual([{ type: 'text', text: 'Hi' }]);
    expect(await infra.eventStore.pendingPublication(10)).toEqual([]);
    expect(await readModel.messages.count({ projectId: PROJECT, conversationId: CONVERSATION })).toBe(2);
  });

  it('stops at a failed publication, keeps the rest pending, and resumes in order', async () => {
    const stream = new RecordingStream();
    stream.failAfter = 1;
    stream.failNext = 1;
    const { relay, repository, readModel } = wire({ ...infra, eventStream: stream });
    const appended = await appendExchange(repository);

    await expect(relay.flush()).rejects.toThrow('stream unavailable');
    expect((await infra.eventStore.pendingPublication(10)).map((e) => e.eventId)).toEqual(appended.slice(1).map((e) => e.eventId));
    // Projected up to the event that could not be published; that one again on retry is harmless.
    expect(await readModel.conversations.findOne({ _id: CONVERSATION, projectId: PROJECT })).toMatchObject({ version: 2 });

    await relay.flush();
    expect(stream.published.map((p) => p.msgId)).toEqual(appended.map((e) => e.eventId));
    expect(await infra.eventStore.pendingPublication(10)).toEqual([]);
    expect(await readModel.conversations.findOne({ _id: CONVERSATION, projectId: PROJECT })).toMatchObject({
      version: 3,
      messageCount: 2,
      lastMessageId: REPLY_1,
    });
  });

  it('lets concurrent callers share a drain, each seeing its own events published', async () => {
    const stream = new RecordingStream();
    const { relay, repository } = wire({ ...infra, eventStream: stream });
    await appendExchange(repository);
    await Promise.all([relay.flush(), relay.flush(), relay.flush()]);
    expect(stream.published).toHaveLength(3);
  });
});
