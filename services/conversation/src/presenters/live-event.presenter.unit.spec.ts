import { describe, expect, it } from 'vitest';
import { ADA_ID, AGENT_1, ev, REPLY_1, stored, USER_1 } from '../testing/conversation.fixtures';
import { liveEventsOf } from './live-event.presenter';

const history = stored(
  ev.started(0),
  ev.userPosted(USER_1, 'Hi', 1),
  ev.replyStarted(REPLY_1, 2),
  ev.replyCompleted(REPLY_1, 'Hello!', 3),
  ev.requested('visitor', USER_1, 4),
  ev.claimed(ADA_ID, 'Ada', 5),
  ev.agentPosted(AGENT_1, 'Ada here', 'Ada', 6),
  ev.released(ADA_ID, 7),
  ev.closed('done', 8),
);

describe('liveEventsOf', () => {
  it('names each change a visitor sees, with the conversation and message as they stood right after it', () => {
    const live = liveEventsOf(history, 0);
    expect(live.map((e) => [e.id, e.type])).toEqual([
      ['2', 'message.created'],
      ['4', 'message.updated'],
      ['5', 'handoff.requested'],
      ['6', 'handoff.claimed'],
      ['7', 'message.created'],
      ['8', 'handoff.released'],
      ['9', 'conversation.closed'],
    ]);
    expect(live[1]!.message).toMatchObject({
      id: REPLY_1,
      role: 'assistant',
      status: 'complete',
      parts: [{ type: 'text', text: 'Hello!' }],
    });
    expect(live[3]!.conversation).toMatchObject({ isHumanHandled: true, humanAgent: { name: 'Ada', image: null } });
    expect(live[4]!.message).toMatchObject({ role: 'human_agent', metadata: { humanAgent: { name: 'Ada', image: null } } });
    expect(live[5]!.conversation.isHumanHandled).toBe(false);
    expect(live[6]!.conversation).toMatchObject({ status: 'closed', closeReason: 'done' });
  });

  it('tells the visitor nothing of internal notes', () => {
    const noted = stored(ev.started(0), ev.userPosted(USER_1, 'Hi', 1), ev.noted('00000000-0000-4000-8000-00000000a001', 'VIP', ADA_ID, 2));
    expect(liveEventsOf(noted, 0).map((e) => [e.id, e.type])).toEqual([['2', 'message.created']]);
    expect(liveEventsOf(noted, 2)).toEqual([]);
  });

  it('gives only what came after the cursor', () => {
    expect(liveEventsOf(history, 6).map((e) => e.id)).toEqual(['7', '8', '9']);
    expect(liveEventsOf(history, 9)).toEqual([]);
  });
});
