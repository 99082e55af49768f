import { describe, expect, it } from 'vitest';
import { AGENT_1, ev, REPLY_1, REPLY_2, USER_1, USER_2 } from '../testing/conversation.fixtures';
import { recentHistory } from './conversation.history';
import { type ExistingConversation, fold } from './conversation.state';

const existing = (...events: Parameters<typeof fold>[0]): ExistingConversation => {
  const state = fold(events);
  if (state.status === 'none') throw new Error('no conversation');
  return state;
};

describe('recentHistory', () => {
  it('lists the conversation oldest first, ending with the new message, without the streaming reply', () => {
    const state = existing(
      ev.started(),
      ev.userPosted(USER_1, 'Price?'),
      ev.replyStarted(REPLY_1),
      ev.replyCompleted(REPLY_1, '10 EUR'),
      ev.handoff(),
      ev.agentPosted(AGENT_1, 'Ada here'),
      ev.userPosted(USER_2, 'Shipping?'),
      ev.replyStarted(REPLY_2),
    );
    expect(recentHistory(state)).toEqual([
      { role: 'user', content: 'Price?' },
      { role: 'assistant', content: '10 EUR' },
      { role: 'assistant', content: 'Ada here' },
      { role: 'user', content: 'Shipping?' },
    ]);
  });

  it('keeps the partial text of a failed reply and drops an empty one', () => {
    const state = existing(
      ev.started(),
      ev.userPosted(USER_1, 'One'),
      ev.replyStarted(REPLY_1),
      ev.replyFailed(REPLY_1, 'boom', 'Half an'),
      ev.userPosted(USER_2, 'Two'),
      ev.replyStarted(REPLY_2),
      ev.replyFailed(REPLY_2, 'boom'),
    );
    expect(recentHistory(state)).toEqual([
      { role: 'user', content: 'One' },
      { role: 'assistant', content: 'Half an' },
      { role: 'user', content: 'Two' },
    ]);
  });

  it('keeps only the last `limit` messages', () => {
    const ids = Array.from({ length: 30 }, (_, i) => `00000000-0000-4000-8000-${String(100 + i).padStart(12, '0')}`);
    const state = existing(ev.started(), ...ids.map((id, i) => ev.userPosted(id, `m${i}`)));
    const history = recentHistory(state, 20);
    expect(history).toHaveLength(20);
    expect(history[0]).toEqual({ role: 'user', content: 'm10' });
    expect(history.at(-1)).toEqual({ role: 'user', content: 'm29' });
  });
});
