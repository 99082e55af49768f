import { randomUUID } from 'node:crypto';
import { type ConversationEvent, HANDOFF_NOTICE } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { type ConversationStats, emptyStats, evolveStats, type UnansweredChange } from './conversation-stats';
import { summarize } from './insights-summary';

const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 0, cachedInputTokens: 0 };
const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 2, 1, 10, minute, second)).toISOString();

/** Scripts one conversation event by event, as the conversation service would record it. */
class Script {
  stats: ConversationStats;
  changes: UnansweredChange[] = [];
  private lastQuestion = '';
  private lastReply = '';

  constructor() {
    this.stats = emptyStats(randomUUID(), randomUUID(), at(0));
  }

  private apply(event: ConversationEvent, when: string): this {
    const { stats, changes } = evolveStats(this.stats, event, when);
    this.stats = { ...stats, version: this.stats.version + 1 };
    this.changes.push(...changes);
    return this;
  }

  start(when = at(0)) {
    return this.apply(
      { type: 'ConversationStarted', data: { projectId: this.stats.projectId, visitorId: randomUUID(), pageUrl: null } },
      when,
    );
  }

  /** `flags` are what inference decides on the clear text (the stream carries the text sealed). */
  ask(content: string, answer: string, when: string, flags: { grounded?: boolean; declined?: boolean } = {}) {
    this.lastQuestion = randomUUID();
    this.lastReply = randomUUID();
    this.apply({ type: 'UserMessagePosted', data: { messageId: this.lastQuestion, content, pageContext: null } }, when);
    this.apply({ type: 'AssistantReplyStarted', data: { messageId: this.lastReply, assistantId: null } }, when);
    return this.apply(
      {
        type: 'AssistantReplyCompleted',
        data: {
          messageId: this.lastReply,
          text: answer,
          finishReason: 'stop',
          usage: USAGE,
          ...flags,
        },
      },
      when,
    );
  }

  feedback(feedback: 'like' | 'dislike' | null, previous: 'like' | 'dislike' | null, when: string) {
    return this.apply({ type: 'MessageFeedbackGiven', data: { messageId: this.lastReply, feedback, previous } }, when);
  }

  handoff(when: string) {
    return this.apply({ type: 'HumanHandoffRequested', data: { source: 'visitor', messageId: null } }, when);
  }

  agentWrites(when: string) {
    return this.apply(
      {
        type: 'HumanAgentMessagePosted',
        data: { messageId: randomUUID(), content: 'Hi, Ada here', humanAgent: { name: 'Ada', image: null } },
      },
      when,
    );
  }

  rate(score: number, when: string, previousScore: number | null = null) {
    return this.apply({ type: 'ConversationRated', data: { score, comment: null, previousScore } }, when);
  }

  erase(when: string) {
    return this.apply({ type: 'ConversationErased', data: { reason: 'request' } }, when);
  }

  get question() {
    return this.lastQuestion;
  }
}

describe('insights summary', () => {
  it('matches figures computed by hand for a scripted set of conversations', () => {
    // A: 2 questions answered, one like, rated 5: no person.
    const a = new Script()
      .start()
      .ask('hours?', 'We open at 9.', at(1))
      .feedback('like', null, at(2))
      .ask('and sunday?', 'Closed.', at(3))
      .rate(5, at(4));
    // B: asks for a person at 10:01, the agent writes at 10:03:30 (150 s) and again; one dislike; rated 2, then 3.
    const b = new Script().start().ask('talk to a person', HANDOFF_NOTICE, at(1)).handoff(at(1)).agentWrites(at(3, 30)).agentWrites(at(4));
    b.feedback('dislike', null, at(5)).rate(2, at(6)).rate(3, at(7), 2);
    // C: handed off at 10:02, first agent message 30 s later; like then changed to dislike then like.
    const c = new Script().start().ask('refund?', 'See our policy.', at(1)).handoff(at(2)).agentWrites(at(2, 30));
    c.feedback('like', null, at(3)).feedback('dislike', 'like', at(4)).feedback('like', 'dislike', at(5));
    // D: handed off, nobody wrote yet, nothing rated.
    const d = new Script().start().ask('price?', 'It is 10 EUR.', at(1)).handoff(at(2));
    // E: one message, no reply yet.
    const e = new Script().start();

    expect(summarize([a, b, c, d, e].map((s) => s.stats))).toEqual({
      conversations: 5,
      // A: 4, B: 2 + 2 agent, C: 2 + 1 agent, D: 2, E: 0
      messages: 13,
      resolvedWithoutHuman: 2,
      handoffRate: 3 / 5,
      // likes: A 1, C 1; dislikes: B 1
      likeRate: 2 / 3,
      // A 5, B 3 (its latest)
      csat: { average: 4, responses: 2 },
      // B 150 000 ms, C 30 000 ms
      medianFirstAgentReplyMs: 90_000,
    });
  });

  it('has no rates without conversations, feedback or agent replies', () => {
    expect(summarize([])).toEqual({
      conversations: 0,
      messages: 0,
      resolvedWithoutHuman: 0,
      handoffRate: null,
      likeRate: null,
      csat: { average: null, responses: 0 },
      medianFirstAgentReplyMs: null,
    });
  });
});

describe('unanswered questions of a conversation', () => {
  it('records a declined answer, an answer without knowledge and a disliked one, never the handoff notice', () => {
    const s = new Script().start();
    s.ask('Do you ship to Mars?', "I'm sorry, I don't know the answer to that.", at(1), { declined: true, grounded: true });
    const declined = s.question;
    s.ask('What is the warranty?', 'Two years on every bike.', at(2), { grounded: false, declined: false });
    const ungrounded = s.question;
    s.ask('How do I return a bike?', 'Bring it back within 30 days.', at(3), { grounded: true, declined: false });
    const disliked = s.question;
    s.feedback('dislike', null, at(4));
    // Inference sends no `grounded` with the handoff notice.
    s.ask('human please', HANDOFF_NOTICE, at(5), { declined: false });
    s.ask('Can I pay by card?', 'Yes, every card.', at(6), { grounded: true, declined: false });

    expect(s.changes).toEqual([
      { kind: 'add', questionId: declined, askedAt: at(1), reason: 'declined' },
      { kind: 'add', questionId: ungrounded, askedAt: at(2), reason: 'no-knowledge' },
      { kind: 'add', questionId: disliked, askedAt: at(3), reason: 'disliked' },
    ]);
  });

  it('reads the flags, never the text: a sealed or erased text changes nothing', () => {
    const s = new Script().start();
    s.ask('sealed', "I don't know.", at(1));
    s.ask('', '', at(2), { grounded: true, declined: false });
    expect(s.changes).toEqual([]);
    expect(JSON.stringify(s.stats)).not.toContain('sealed');
  });

  it('forgets the questions of an erased conversation: a later dislike adds nothing', () => {
    const s = new Script().start().ask('How do I return a bike?', 'Bring it back.', at(1), { grounded: true });
    s.erase(at(2)).feedback('dislike', null, at(3));
    expect(s.changes).toEqual([]);
    expect(s.stats.recent).toEqual([]);
  });

  it('withdraws a dislike that is taken back', () => {
    const s = new Script().start().ask('How do I return a bike?', 'Bring it back.', at(1), { grounded: true });
    s.feedback('dislike', null, at(2)).feedback('like', 'dislike', at(3));
    expect(s.changes.map((c) => c.kind)).toEqual(['add', 'withdraw']);
  });
});
