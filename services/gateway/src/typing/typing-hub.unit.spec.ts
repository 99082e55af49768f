import { TYPING_MIN_INTERVAL_MS, type TypingEvent } from '@palaver/contracts';
import { InProcessPubSub, ManualClock } from '@palaver/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { TypingHub } from './typing-hub';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const CONVERSATION = '00000000-0000-4000-8000-000000000002';
const OTHER = '00000000-0000-4000-8000-000000000003';

const visitorTyping = (conversationId: string): TypingEvent => ({
  type: 'typing',
  occurredAt: '2026-01-01T00:00:00.000Z',
  conversationId,
  by: 'visitor',
});
const agentTyping = (conversationId: string): TypingEvent => ({
  type: 'typing',
  occurredAt: '2026-01-01T00:00:00.000Z',
  conversationId,
  by: 'agent',
  humanAgent: { id: null, name: 'Ada', image: null },
});

describe('TypingHub', () => {
  const pubsub = new InProcessPubSub();
  const clock = new ManualClock();
  let hub: TypingHub;
  afterEach(() => hub?.stop());

  it('accepts one signal per conversation and side in TYPING_MIN_INTERVAL_MS', () => {
    hub = new TypingHub(pubsub, clock);
    expect(hub.accept(CONVERSATION, 'visitor')).toBe(true);
    expect(hub.accept(CONVERSATION, 'visitor')).toBe(false);
    // The other side and other conversations have slots of their own.
    expect(hub.accept(CONVERSATION, 'agent')).toBe(true);
    expect(hub.accept(OTHER, 'visitor')).toBe(true);
    clock.advance(TYPING_MIN_INTERVAL_MS - 1);
    expect(hub.accept(CONVERSATION, 'visitor')).toBe(false);
    clock.advance(1);
    expect(hub.accept(CONVERSATION, 'visitor')).toBe(true);
  });

  it('hands agents’ typing to the conversation’s visitor streams and visitors’ typing to the project’s agents', async () => {
    hub = new TypingHub(pubsub, clock);
    await hub.start();
    const forVisitor: TypingEvent[] = [];
    const forOtherVisitor: TypingEvent[] = [];
    const forAgents: TypingEvent[] = [];
    const stopVisitor = hub.forVisitor(CONVERSATION, (event) => forVisitor.push(event));
    hub.forVisitor(OTHER, (event) => forOtherVisitor.push(event));
    hub.forAgents(PROJECT, (event) => forAgents.push(event));

    await hub.publish(PROJECT, agentTyping(CONVERSATION));
    await hub.publish(PROJECT, visitorTyping(CONVERSATION));
    expect(forVisitor).toEqual([agentTyping(CONVERSATION)]);
    expect(forOtherVisitor).toEqual([]);
    expect(forAgents).toEqual([visitorTyping(CONVERSATION)]);

    stopVisitor();
    await hub.publish(PROJECT, agentTyping(CONVERSATION));
    expect(forVisitor).toHaveLength(1);
  });
});
