import { describe, expect, it } from 'vitest';
import { ADA_ID, AGENT_1, ev, stored, USER_1, USER_2 } from '../testing/conversation.fixtures';
import { agentFeedEntryOf } from './agent-feed';
import { applyToConversation } from './conversation.projection';
import type { ConversationDoc } from './read-model';

/** Each event with the conversation document right after it, as the projector hands them over. */
const feedOf = (events: ReturnType<typeof stored>) => {
  let doc: ConversationDoc | null = null;
  return events.map((event) => {
    doc = applyToConversation(doc, event);
    return agentFeedEntryOf(event, doc!)?.type ?? null;
  });
};

describe('agentFeedEntryOf', () => {
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
