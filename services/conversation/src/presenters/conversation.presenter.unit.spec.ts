import { Conversation, Message } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { AGENT_1, at, CONVERSATION, ev, REPLY_1, stored, USER_1 } from '../testing/conversation.fixtures';
import { documentsOf, toConversation, toFullConversation, toMessage } from './conversation.presenter';

const events = stored(
  ev.started(0),
  ev.userPosted(USER_1, 'Price of the blue mug?', 1_000),
  ev.replyStarted(REPLY_1, 1_000),
  ev.replyCompleted(REPLY_1, '12 EUR', 2_000),
  ev.handoff('Ada', 3_000),
  ev.agentPosted(AGENT_1, 'Ada here', 'Ada', 4_000),
);

describe('conversation presenter', () => {
  it('builds the documents of a stream, messages in stream order', () => {
    const { conversation, messages } = documentsOf(events);
    expect(conversation?._id).toBe(CONVERSATION);
    expect(messages.map((m) => [m._id, m.role, m.status])).toEqual([
      [USER_1, 'user', 'complete'],
      [REPLY_1, 'assistant', 'complete'],
      [AGENT_1, 'human_agent', 'complete'],
    ]);
  });

  it('shows a full conversation with titled messages and the human agent, valid against the contract', () => {
    const { conversation, messages } = documentsOf(events);
    const shown = toFullConversation(conversation!, messages);
    expect(Conversation.parse(shown)).toEqual(shown);
    expect(shown).toMatchObject({
      object: 'conversation',
      id: CONVERSATION,
      status: 'open',
      title: 'Price of the blue mug?',
      isHumanHandled: true,
      humanAgent: { name: 'Ada', image: null },
      lastInteractionAt: at(4_000),
    });
    expect(shown.messages?.map((m) => [m.id, m.title, m.chatId])).toEqual([
      [USER_1, 'Price of the blue mug?', CONVERSATION],
      [REPLY_1, 'Price of the blue mug?', CONVERSATION],
      [AGENT_1, 'Price of the blue mug?', CONVERSATION],
    ]);
  });

  it('leaves out humanAgent before a handoff, and title on a bare message', () => {
    const { conversation, messages } = documentsOf(events.slice(0, 4));
    const shown = toConversation(conversation!, { lastMessage: null });
    expect(shown.isHumanHandled).toBe(false);
    expect('humanAgent' in shown).toBe(false);
    expect('messages' in shown).toBe(false);
    const message = toMessage(messages[1]!);
    expect(Message.parse(message)).toEqual(message);
    expect('title' in message).toBe(false);
    expect(message).toMatchObject({ object: 'message', role: 'assistant', parts: [{ type: 'text', text: '12 EUR' }] });
  });
});
