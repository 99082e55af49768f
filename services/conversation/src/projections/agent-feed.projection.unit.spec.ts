import { describe, expect, it } from 'vitest';
import type { ConversationDoc } from '../repositories/read-model';
import { ADA_ID, AGENT_1, ev, stored, USER_1, USER_2 } from '../testing/conversation.fixtures';
import { agentFeedEntryOf, GAP_GRACE_MS, untilGap } from './agent-feed.projection';
import { applyToConversation } from './conversation.projection';

/** Each event with the conversation document right after it, as the projector hands them over. */
const feedOf = (events: ReturnType<typeof stored>) => {
  let doc: ConversationDoc | null = null;
  return events.map((event) => {
    doc = applyToConversation(doc, event);
    return agentFeedEntryOf(event, doc!)?.type ?? null;
  });
};

describe('agentFeedEntryOf', () => {
  it('keeps every internal note, with its id, whoever answers the conversation', () => {
    const NOTE = '00000000-0000-4000-8000-00000000a001';
    const events = stored(ev.started(0), ev.userPosted(USER_1, 'Hi'), ev.noted(NOTE, 'VIP'));
    let doc: ConversationDoc | null = null;
    const entries = events.map((event) => {
      doc = applyToConversation(doc, event);
      return agentFeedEntryOf(event, doc!);
    });
    expect(entries).toEqual([null, null, { type: 'note.added', messageId: null, noteId: NOTE }]);
  });

  it('keeps handoff transitions and the messages and close of human-handled conversations only', () => {
    const types = feedOf(
      stored(
        ev.started(0),
        ev.userPosted(USER_1, 'Hi'),
        ev.requested('visitor', USER_1),
        ev.userPosted(USER_2, 'Anyone?'),
        ev.claimed(ADA_ID),
        ev.agentPosted(AGENT_1, 'Ada here'),
        ev.released(ADA_ID),
        ev.closed(),
      ),
    );
    expect(types).toEqual([
      null,
      null,
      'handoff.requested',
      'message.visitor',
      'handoff.claimed',
      'message.agent',
      'handoff.released',
      null,
    ]);
  });

  it('tells agents when a human-handled conversation closes', () => {
    expect(feedOf(stored(ev.started(0), ev.requested(), ev.closed())).at(-1)).toBe('conversation.closed');
  });
});

describe('untilGap', () => {
  const NOW = Date.parse('2026-03-01T10:00:00.000Z');
  const entry = (seq: number, agoMs: number) => ({ seq, recordedAt: new Date(NOW - agoMs).toISOString() });

  it('passes a contiguous page through', () => {
    const page = [entry(4, 10), entry(5, 5), entry(6, 0)];
    expect(untilGap(page, 3, NOW)).toEqual(page);
  });

  it('stops before an entry whose predecessor may still be being written', () => {
    expect(untilGap([entry(4, 10), entry(6, 5), entry(7, 0)], 3, NOW).map((e) => e.seq)).toEqual([4]);
    expect(untilGap([entry(5, 5)], 3, NOW)).toEqual([]);
  });

  it('passes over a sequence never filled once the entry after it is old enough', () => {
    expect(untilGap([entry(4, 10), entry(6, GAP_GRACE_MS)], 3, NOW).map((e) => e.seq)).toEqual([4, 6]);
  });
});
