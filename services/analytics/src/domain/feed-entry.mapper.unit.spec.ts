import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './feed.cursor';
import { conversationIdOf, readConversationEvent } from './feed-entry.mapper';

const PROJECT = randomUUID();
const CONVERSATION = randomUUID();
const MESSAGE = randomUUID();

const stored = (type: string, data: unknown, over: Record<string, unknown> = {}) => ({
  eventId: randomUUID(),
  streamId: `conversation-${CONVERSATION}`,
  version: 4,
  type,
  projectId: PROJECT,
  occurredAt: '2026-03-01T10:00:00.000Z',
  data,
  ...over,
});

describe('readConversationEvent', () => {
  it('reads events whose personal fields are sealed (an object field sealed as a string), never the sealed value', () => {
    const posted = readConversationEvent(stored('UserMessagePosted', { messageId: MESSAGE, content: 'pv1:AAAA', pageContext: 'pv1:BBBB' }));
    expect(posted).toMatchObject({ kind: 'entry', entry: { type: 'message.posted', data: { messageId: MESSAGE } } });
    const visitorId = randomUUID();
    const started = readConversationEvent(stored('ConversationStarted', { projectId: PROJECT, visitorId, pageUrl: 'pv1:CCCC' }));
    expect(started).toMatchObject({ kind: 'entry', entry: { data: { visitorId, pageUrl: null } } });
    expect(readConversationEvent(stored('ConversationErased', { reason: 'request' }))).toEqual({
      kind: 'erased',
      projectId: PROJECT,
      conversationId: CONVERSATION,
    });
  });

  it('reads a like as feedback.given with its submission', () => {
    const event = stored('MessageFeedbackGiven', { messageId: MESSAGE, feedback: 'like', previous: null });
    expect(readConversationEvent(event)).toEqual({
      kind: 'entry',
      entry: {
        eventId: event.eventId,
        projectId: PROJECT,
        conversationId: CONVERSATION,
        type: 'feedback.given',
        category: 'feedback',
        occurredAt: event.occurredAt,
        data: { messageId: MESSAGE, feedback: 'like', previous: null },
      },
      feedback: {
        eventId: event.eventId,
        projectId: PROJECT,
        conversationId: CONVERSATION,
        messageId: MESSAGE,
        feedback: 'like',
        previous: null,
        version: 4,
        occurredAt: event.occurredAt,
      },
    });
  });

  it('reads a null feedback as feedback.removed', () => {
    const read = readConversationEvent(stored('MessageFeedbackGiven', { messageId: MESSAGE, feedback: null, previous: 'dislike' }));
    expect(read.kind === 'entry' && read.entry.type).toBe('feedback.removed');
    expect(read.kind === 'entry' && read.feedback?.previous).toBe('dislike');
  });

  it('keeps the conversation flow without message content', () => {
    const started = readConversationEvent(stored('ConversationStarted', { projectId: PROJECT, visitorId: randomUUID(), pageUrl: null }));
    expect(started).toMatchObject({ kind: 'entry', entry: { type: 'conversation.started', category: 'conversation' }, feedback: null });
    const posted = readConversationEvent(stored('UserMessagePosted', { messageId: MESSAGE, content: 'secret', pageContext: null }));
    expect(posted).toMatchObject({ kind: 'entry', entry: { type: 'message.posted', data: { messageId: MESSAGE } } });
    expect(JSON.stringify(posted)).not.toContain('secret');
    const failed = readConversationEvent(stored('AssistantReplyFailed', { messageId: MESSAGE, error: 'boom', partialText: 'x' }));
    expect(failed).toMatchObject({ kind: 'entry', entry: { type: 'reply.failed', data: { messageId: MESSAGE, error: 'boom' } } });
    const closed = readConversationEvent(stored('ConversationClosed', { closeReason: 'done' }));
    expect(closed).toMatchObject({ kind: 'entry', entry: { type: 'conversation.closed', data: { closeReason: 'done' } } });
  });

  it('reads a rating as conversation.rated with its score and comment', () => {
    const rated = readConversationEvent(stored('ConversationRated', { score: 4, comment: 'quick', previousScore: 2 }));
    expect(rated).toMatchObject({
      kind: 'entry',
      entry: { type: 'conversation.rated', category: 'conversation', data: { score: 4, comment: 'quick', previousScore: 2 } },
      feedback: null,
    });
    expect(readConversationEvent(stored('ConversationRated', { score: 6, comment: null, previousScore: null }))).toMatchObject({
      kind: 'invalid',
    });
  });

  it('ignores events the feed leaves out and unknown types', () => {
    expect(readConversationEvent(stored('AssistantReplyStarted', { messageId: MESSAGE, assistantId: null }))).toEqual({ kind: 'ignored' });
    expect(readConversationEvent(stored('SomethingNew', { anything: 1 }))).toEqual({ kind: 'ignored' });
    // Internal notes are the team's: the feed (and so webhooks) never has them, sealed or not.
    const agent = { id: randomUUID(), name: 'Ada', image: null };
    expect(readConversationEvent(stored('AgentNoteAdded', { noteId: randomUUID(), content: 'pv1:AAAA', agent }))).toEqual({
      kind: 'ignored',
    });
  });

  it('reports malformed events instead of throwing', () => {
    expect(readConversationEvent({ type: 'MessageFeedbackGiven' }).kind).toBe('invalid');
    expect(readConversationEvent(stored('MessageFeedbackGiven', { messageId: MESSAGE, feedback: 'love', previous: null })).kind).toBe(
      'invalid',
    );
    expect(readConversationEvent(stored('ConversationClosed', { closeReason: null }, { streamId: 'conversation-without-id' })).kind).toBe(
      'invalid',
    );
  });

  it('finds the conversation id in either stream id form', () => {
    expect(conversationIdOf(CONVERSATION)).toBe(CONVERSATION);
    expect(conversationIdOf(`conversation-${CONVERSATION}`)).toBe(CONVERSATION);
    expect(conversationIdOf('conversation-1')).toBeNull();
  });
});

describe('feed cursor', () => {
  it('round-trips and sorts as strings in sequence order', () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(encodeCursor(9) < encodeCursor(10)).toBe(true);
    expect(encodeCursor(999) < encodeCursor(1000)).toBe(true);
  });

  it('rejects what it never issued', () => {
    expect(decodeCursor('abc')).toBeNull();
    expect(decodeCursor('-1')).toBeNull();
    expect(decodeCursor('')).toBeNull();
    expect(decodeCursor('1e3')).toBeNull();
  });
});
