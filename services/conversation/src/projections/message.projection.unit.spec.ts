import { ZERO_USAGE } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import type { MessageDoc } from '../repositories/read-model';
import { AGENT_1, at, CONVERSATION, dated, ev, PROJECT, REPLY_1, stored, USER_1, VISITOR } from '../testing/conversation.fixtures';
import { applyToMessage, messageIdOf } from './message.projection';

const owner = { visitorId: VISITOR };

/** The document of `messageId` after all the events. */
const project = (events: ReturnType<typeof stored>, messageId: string): MessageDoc | null =>
  events.filter((e) => messageIdOf(e) === messageId).reduce<MessageDoc | null>((doc, event) => applyToMessage(doc, event, owner), null);

describe('applyToMessage', () => {
  it('creates a user message with the page context as metadata', () => {
    const events = stored(
      ev.started(0),
      dated(at(1_000), {
        type: 'UserMessagePosted',
        data: {
          messageId: USER_1,
          content: 'Is this in stock?',
          pageContext: { url: 'https://shop.example/p/1', title: 'Blue mug', content: 'page text', textSelection: 'Blue' },
        },
      }),
    );
    expect(project(events, USER_1)).toEqual({
      _id: USER_1,
      projectId: PROJECT,
      conversationId: CONVERSATION,
      visitorId: VISITOR,
      role: 'user',
      parts: [{ type: 'text', text: 'Is this in stock?' }],
      status: 'complete',
      error: null,
      feedback: null,
      feedbackAt: null,
      metadata: { humanAgent: null, pageUrl: 'https://shop.example/p/1', pageTitle: 'Blue mug', textSelection: 'Blue' },
      createdAt: at(1_000),
      updatedAt: at(1_000),
      seq: 2,
      assistantId: null,
      usage: null,
      finishReason: null,
      version: 2,
    });
  });

  it('takes an assistant reply from streaming (empty) to complete with usage', () => {
    const usage = { ...ZERO_USAGE, inputTokens: 12, outputTokens: 3, totalTokens: 15 };
    const events = stored(
      ev.started(0),
      ev.userPosted(USER_1, 'Hi', 1_000),
      ev.replyStarted(REPLY_1, 1_000),
      dated(at(2_000), { type: 'AssistantReplyCompleted', data: { messageId: REPLY_1, text: 'Hello!', finishReason: 'stop', usage } }),
    );
    const streaming = project(events.slice(0, 3), REPLY_1);
    expect(streaming).toMatchObject({ role: 'assistant', status: 'streaming', parts: [{ type: 'text', text: '' }], seq: 3 });
    expect(streaming!.metadata).toEqual({ humanAgent: null, pageUrl: null, pageTitle: null, textSelection: null });
    expect(project(events, REPLY_1)).toMatchObject({
      status: 'complete',
      parts: [{ type: 'text', text: 'Hello!' }],
      usage,
      finishReason: 'stop',
      createdAt: at(1_000),
      updatedAt: at(2_000),
      version: 4,
    });
  });

  it('marks a failed reply with its error, keeping the partial text', () => {
    const events = stored(
      ev.started(0),
      ev.userPosted(USER_1, 'Hi'),
      ev.replyStarted(REPLY_1),
      ev.replyFailed(REPLY_1, 'model down', 'Hel'),
    );
    expect(project(events, REPLY_1)).toMatchObject({ status: 'error', error: 'model down', parts: [{ type: 'text', text: 'Hel' }] });
  });

  it('records feedback with its time, clears both on removal', () => {
    const base = [ev.started(0), ev.userPosted(USER_1, 'Hi'), ev.replyStarted(REPLY_1), ev.replyCompleted(REPLY_1, 'Hello')];
    const liked = stored(...base, ev.feedback(REPLY_1, 'like', null, 5_000));
    expect(project(liked, REPLY_1)).toMatchObject({ feedback: 'like', feedbackAt: at(5_000) });
    const likedAgain = stored(...base, ev.feedback(REPLY_1, 'like', null, 5_000), ev.feedback(REPLY_1, 'like', 'like', 8_000));
    expect(project(likedAgain, REPLY_1)).toMatchObject({ feedback: 'like', feedbackAt: at(8_000) });
    const removed = stored(...base, ev.feedback(REPLY_1, 'like', null, 5_000), ev.feedback(REPLY_1, null, 'like', 8_000));
    expect(project(removed, REPLY_1)).toMatchObject({ feedback: null, feedbackAt: null });
  });

  it('gives a human agent message the agent in its metadata', () => {
    const events = stored(ev.started(0), ev.handoff('Ada'), ev.agentPosted(AGENT_1, 'Ada here', 'Ada', 4_000));
    expect(project(events, AGENT_1)).toMatchObject({
      role: 'human_agent',
      status: 'complete',
      parts: [{ type: 'text', text: 'Ada here' }],
      metadata: { humanAgent: { name: 'Ada', image: null }, pageUrl: null, pageTitle: null, textSelection: null },
      createdAt: at(4_000),
    });
  });

  it('is idempotent: an event already applied leaves the document as it is', () => {
    const events = stored(ev.started(0), ev.userPosted(USER_1, 'Hi'), ev.replyStarted(REPLY_1), ev.replyCompleted(REPLY_1, 'Hello'));
    const doc = project(events, REPLY_1)!;
    expect(applyToMessage(doc, events[2]!, owner)).toBe(doc);
    expect(applyToMessage(doc, events[3]!, owner)).toBe(doc);
  });

  it('does nothing for conversation-level events or a change to a message it does not hold', () => {
    const events = stored(
      ev.started(0),
      ev.userPosted(USER_1, 'Hi'),
      ev.replyStarted(REPLY_1),
      ev.replyCompleted(REPLY_1, 'Hello'),
      ev.closed(),
    );
    expect(messageIdOf(events[0]!)).toBeNull();
    expect(messageIdOf(events[4]!)).toBeNull();
    expect(applyToMessage(null, events[3]!, owner)).toBeNull();
  });
});
