import { AGENT_FEED_CHANGES_CHANNEL } from '@palaver/contracts';
import { InProcessPubSub } from '@palaver/platform';
import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, ev, PROJECT, REPLY_1, stored, USER_1 } from '../testing/conversation.fixtures';
import { wire } from '../testing/conversation.wiring';
import { applyToConversation, ConversationProjection } from './conversation.projection';
import { applyToMessage, messageIdOf } from './message.projection';

let infra: TestInfrastructure;
beforeEach(async () => {
  infra = await createTestInfrastructure();
});
afterEach(async () => {
  await infra.cleanup();
});

const events = stored(
  ev.started(0),
  ev.userPosted(USER_1, 'Hi', 1_000),
  ev.replyStarted(REPLY_1, 1_000),
  ev.replyCompleted(REPLY_1, 'Hello', 2_000),
  ev.feedback(REPLY_1, 'like', null, 3_000),
  ev.closed('done', 4_000),
);

/** The documents the pure functions give for the whole stream. */
const expected = () => {
  const conversation = events.reduce(applyToConversation, null);
  const message = (id: string) =>
    events
      .filter((e) => messageIdOf(e) === id)
      .reduce((doc, e) => applyToMessage(doc, e, { visitorId: conversation!.visitorId }), null as ReturnType<typeof applyToMessage>);
  return { conversation, user: message(USER_1), reply: message(REPLY_1) };
};

describe('ReadModelProjector', () => {
  it('writes what the pure projections compute', async () => {
    const { projector, readModel } = wire(infra);
    for (const event of events) await projector.apply(event);
    const want = expected();
    expect(await readModel.conversations.findOne({ _id: CONVERSATION, projectId: PROJECT })).toEqual(want.conversation);
    expect(await readModel.messages.findOne({ _id: USER_1, projectId: PROJECT })).toEqual(want.user);
    expect(await readModel.messages.findOne({ _id: REPLY_1, projectId: PROJECT })).toEqual(want.reply);
  });

  it('is idempotent: replaying the stream, or any event of it, changes nothing', async () => {
    const { projector, readModel } = wire(infra);
    for (const event of events) await projector.apply(event);
    for (const event of [...events, events[1]!, events[3]!]) await projector.apply(event);
    const want = expected();
    expect(await readModel.conversations.find({ projectId: PROJECT })).toEqual([want.conversation]);
    expect(await readModel.messages.count({ projectId: PROJECT })).toBe(2);
    expect(await readModel.messages.findOne({ _id: REPLY_1, projectId: PROJECT })).toEqual(want.reply);
  });

  it('two relays replaying the same stream side by side end in the same documents', async () => {
    const first = wire(infra);
    const second = wire(infra);
    await Promise.all([
      (async () => {
        for (const event of events) await first.projector.apply(event);
      })(),
      (async () => {
        for (const event of events) await second.projector.apply(event);
      })(),
    ]);
    const want = expected();
    expect(await first.readModel.conversations.findOne({ _id: CONVERSATION, projectId: PROJECT })).toEqual(want.conversation);
    expect(await first.readModel.messages.findOne({ _id: REPLY_1, projectId: PROJECT })).toEqual(want.reply);
  });

  it('catches up over the document another relay moved on after it was read (the read is only a first try)', async () => {
    const { projector, readModel } = wire(infra);
    const conversations = new ConversationProjection(readModel);
    for (const event of events.slice(0, 2)) await projector.apply(event);
    const stale = await conversations.current(events[0]!);
    await projector.apply(events[2]!); // another relay, after `stale` was read
    await conversations.applyAll(events.slice(2, 4), stale);
    const want = events.slice(0, 4).reduce(applyToConversation, null);
    expect(await readModel.conversations.findOne({ _id: CONVERSATION, projectId: PROJECT })).toEqual(want);
  });

  it('does not show a conversation to another project', async () => {
    const { projector, readModel } = wire(infra);
    for (const event of events) await projector.apply(event);
    expect(await readModel.conversations.findOne({ _id: CONVERSATION, projectId: '00000000-0000-4000-8000-0000000000ff' })).toBeNull();
  });

  it("announces each new entry of the project's agent feed once, and nothing for what adds none", async () => {
    const pubsub = new InProcessPubSub();
    const announced: unknown[] = [];
    await pubsub.subscribe(AGENT_FEED_CHANGES_CHANNEL, (message) => announced.push(message));
    const { projector } = wire({ ...infra, pubsub });
    const handoff = stored(ev.started(0), ev.userPosted(USER_1, 'Hi', 1_000), ev.requested('visitor', USER_1, 2_000), ev.claimed());
    for (const event of handoff) await projector.apply(event);
    await projector.apply(handoff[2]!); // replayed: already in the feed
    expect(announced).toEqual([{ projectId: PROJECT }, { projectId: PROJECT }]);
  });
});
