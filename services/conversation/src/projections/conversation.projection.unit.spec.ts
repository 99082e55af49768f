import { describe, expect, it } from 'vitest';
import type { ConversationDoc } from '../repositories/read-model';
import { ADA_ID, AGENT_1, at, CONVERSATION, ev, PROJECT, REPLY_1, stored, USER_1, USER_2, VISITOR } from '../testing/conversation.fixtures';
import { applyToConversation } from './conversation.projection';

const project = (events: ReturnType<typeof stored>): ConversationDoc | null =>
  events.reduce<ConversationDoc | null>((doc, event) => applyToConversation(doc, event), null);

describe('applyToConversation', () => {
  it('creates the document from the start', () => {
    expect(project(stored(ev.started(0, 'https://shop.example')))).toEqual({
      _id: CONVERSATION,
      projectId: PROJECT,
      visitorId: VISITOR,
      status: 'open',
      createdAt: at(0),
      updatedAt: at(0),
      closedAt: null,
      closeReason: null,
      lastInteractionAt: at(0),
      title: null,
      isHumanHandled: false,
      humanAgent: null,
      handoffAt: null,
      handoffStatus: 'none',
      handoffRequestedAt: null,
      pageUrl: 'https://shop.example',
      lastMessageId: null,
      messageCount: 0,
      version: 1,
    });
  });

  it('moves only the version for an internal note: nothing the visitor reads changes', () => {
    const before = project(stored(ev.started(0), ev.userPosted(USER_1, 'Hi', 1_000)));
    const after = project(
      stored(ev.started(0), ev.userPosted(USER_1, 'Hi', 1_000), ev.noted('00000000-0000-4000-8000-00000000a001', 'VIP', ADA_ID, 5_000)),
    );
    expect(after).toEqual({ ...before, version: 3 });
  });

  /** A first exchange, its reply liked afterwards. */
  const likedExchange = () => [
    ev.started(0),
    ev.userPosted(USER_1, '  Where is my order?  ', 1_000),
    ev.replyStarted(REPLY_1, 1_000),
    ev.replyCompleted(REPLY_1, 'On its way', 3_000),
    ev.feedback(REPLY_1, 'like', null, 5_000),
  ];

  it('follows messages: title from the first visitor message, last message, interaction times', () => {
    const doc = project(stored(...likedExchange(), ev.userPosted(USER_2, 'Thanks', 7_000)));
    expect(doc).toMatchObject({
      title: 'Where is my order?',
      lastMessageId: USER_2,
      lastInteractionAt: at(7_000),
      updatedAt: at(7_000),
      messageCount: 3,
      version: 6,
    });
  });

  it('a completed reply is an interaction, feedback only an update', () => {
    const doc = project(stored(...likedExchange()));
    expect(doc).toMatchObject({ lastInteractionAt: at(3_000), updatedAt: at(5_000), lastMessageId: REPLY_1 });
  });

  it('records the close and the handoff', () => {
    const doc = project(
      stored(ev.started(0), ev.handoff('Ada', 1_000), ev.agentPosted(AGENT_1, 'Hello', 'Ada', 2_000), ev.closed('done', 3_000)),
    );
    expect(doc).toMatchObject({
      status: 'closed',
      closedAt: at(3_000),
      closeReason: 'done',
      isHumanHandled: true,
      humanAgent: { name: 'Ada', image: null },
      handoffAt: at(1_000),
      lastMessageId: AGENT_1,
      lastInteractionAt: at(2_000),
      messageCount: 1,
    });
  });

  it('tracks the queue: waiting since the request, claimed by the agent, released to the AI', () => {
    const waiting = project(stored(ev.started(0), ev.requested('visitor', null, 1_000)));
    expect(waiting).toMatchObject({ isHumanHandled: true, handoffStatus: 'waiting', handoffRequestedAt: at(1_000), humanAgent: null });
    const claimed = project(stored(ev.started(0), ev.requested('visitor', null, 1_000), ev.claimed(ADA_ID, 'Ada', 2_000)));
    expect(claimed).toMatchObject({ handoffStatus: 'claimed', handoffAt: at(2_000), humanAgent: { id: ADA_ID, name: 'Ada', image: null } });
    const released = project(
      stored(ev.started(0), ev.requested('visitor', null, 1_000), ev.claimed(ADA_ID, 'Ada', 2_000), ev.released(ADA_ID, 3_000)),
    );
    expect(released).toMatchObject({ isHumanHandled: false, handoffStatus: 'none', humanAgent: null, handoffRequestedAt: null });
  });

  it('ignores an event it already holds (same or older version)', () => {
    const events = stored(ev.started(0), ev.userPosted(USER_1, 'Hi', 1_000), ev.closed(null, 2_000));
    const doc = project(events)!;
    for (const event of events) expect(applyToConversation(doc, event)).toBe(doc);
  });

  it('ignores events of a conversation it has no document for', () => {
    const [, posted] = stored(ev.started(0), ev.userPosted(USER_1, 'Hi', 1_000));
    expect(applyToConversation(null, posted!)).toBeNull();
  });
});
