import { type HumanAgentRef, ZERO_USAGE } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import {
  ADA_ID,
  AGENT_1,
  CONVERSATION,
  context,
  ev,
  GRACE_ID,
  given,
  OTHER_PROJECT,
  OTHER_VISITOR,
  PROJECT,
  REPLY_1,
  REPLY_2,
  USER_1,
  USER_2,
  VISITOR,
} from '../testing/conversation.fixtures';
import type { ConversationCommand } from './conversation.commands';
import { HANDOFF_NOTICE, REPLY_TIMED_OUT } from './conversation.commands';
import { decide as decideOn, fold as foldEvents } from './conversation.decider';

const decide = (command: ConversationCommand) => decideOn(command, foldEvents(answered), context());

const scope = { conversationId: CONVERSATION, projectId: PROJECT, visitorId: VISITOR };
const start: ConversationCommand = { type: 'Start', ...scope, pageUrl: 'https://shop.example/p/1' };
const post = (over: Partial<Extract<ConversationCommand, { type: 'PostUserMessage' }>> = {}): ConversationCommand => ({
  type: 'PostUserMessage',
  ...scope,
  messageId: USER_2,
  content: 'And shipping?',
  pageContext: null,
  assistantMessageId: REPLY_2,
  assistantId: null,
  handoffTriggers: null,
  ...over,
});
const complete = (messageId = REPLY_1, projectId = PROJECT): ConversationCommand => ({
  type: 'CompleteReply',
  conversationId: CONVERSATION,
  projectId,
  messageId,
  text: 'Done.',
  finishReason: 'stop',
  usage: ZERO_USAGE,
});
const fail = (messageId = REPLY_1): ConversationCommand => ({
  type: 'FailReply',
  conversationId: CONVERSATION,
  projectId: PROJECT,
  messageId,
  error: 'model unavailable',
  partialText: 'Part',
});
const feedback = (messageId: string, value: 'like' | 'dislike' | null, visitorId = VISITOR): ConversationCommand => ({
  type: 'SetFeedback',
  ...scope,
  visitorId,
  messageId,
  feedback: value,
});
const close = (closeReason: string | null = 'resolved', visitorId = VISITOR): ConversationCommand => ({
  type: 'Close',
  ...scope,
  visitorId,
  closeReason,
});
const ada: HumanAgentRef = { id: null, name: 'Ada', image: null };
const adaAgent: HumanAgentRef = { id: ADA_ID, name: 'Ada', image: null };
const graceAgent: HumanAgentRef = { id: GRACE_ID, name: 'Grace', image: null };
const on = { conversationId: CONVERSATION, projectId: PROJECT };
/** The admin call: an agent with no identity takes the conversation. */
const handoff = (humanAgent = ada, projectId = PROJECT): ConversationCommand => ({
  type: 'Claim',
  conversationId: CONVERSATION,
  projectId,
  humanAgent,
  mode: 'take',
});
const claim = (humanAgent: HumanAgentRef, mode: 'queue' | 'take' = 'queue'): ConversationCommand => ({
  type: 'Claim',
  ...on,
  humanAgent,
  mode,
});
const release = (humanAgentId: string | null = ADA_ID): ConversationCommand => ({ type: 'Release', ...on, humanAgentId });
const request: ConversationCommand = { type: 'RequestHandoff', ...on, source: 'agent', messageId: null };
const agentPost: ConversationCommand = {
  type: 'PostAgentMessage',
  conversationId: CONVERSATION,
  projectId: PROJECT,
  messageId: AGENT_1,
  content: 'Hi, Ada here.',
  humanAgentId: null,
};

/** A conversation whose first exchange is over. */
const answered = [
  ev.started(),
  ev.userPosted(USER_1, 'What does it cost?'),
  ev.replyStarted(REPLY_1),
  ev.replyCompleted(REPLY_1, '10 EUR'),
];

describe('Start', () => {
  it('starts a new conversation', () => {
    given()
      .when(start)
      .then([{ type: 'ConversationStarted', data: { projectId: PROJECT, visitorId: VISITOR, pageUrl: 'https://shop.example/p/1' } }]);
  });

  it('refuses an id already taken', () => {
    given(ev.started()).when(start).thenFails('CONFLICT', { resource: 'conversation', conflictingField: 'id' });
  });

  it("answers not found for another project's id: a conflict would tell that the id exists", () => {
    given(ev.started())
      .when({ ...start, projectId: OTHER_PROJECT } as ConversationCommand)
      .thenFails('CONVERSATION_NOT_FOUND');
  });
});

describe('PostUserMessage', () => {
  it('records the message and starts the reply', () => {
    given(...answered)
      .when(post({ pageContext: { url: 'https://shop.example' } }))
      .then([
        {
          type: 'UserMessagePosted',
          data: { messageId: USER_2, content: 'And shipping?', pageContext: { url: 'https://shop.example' } },
        },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
      ]);
  });

  it('is CONVERSATION_NOT_FOUND for an unknown conversation', () => {
    given().when(post()).thenFails('CONVERSATION_NOT_FOUND', { conversationId: CONVERSATION });
  });

  it('is CONVERSATION_NOT_FOUND for another project', () => {
    given(...answered)
      .when(post({ projectId: OTHER_PROJECT }))
      .thenFails('CONVERSATION_NOT_FOUND', { conversationId: CONVERSATION });
  });

  it('is FORBIDDEN for another visitor of the project', () => {
    given(...answered)
      .when(post({ visitorId: OTHER_VISITOR }))
      .thenFails('FORBIDDEN');
  });

  it('is CONFLICT on a closed conversation', () => {
    given(...answered, ev.closed())
      .when(post())
      .thenFails('CONFLICT', { resource: 'conversation', conflictingField: 'status' });
  });

  it('is CONFLICT while the previous reply is still streaming', () => {
    given(ev.started(), ev.userPosted(USER_1, 'Hi', 0), ev.replyStarted(REPLY_1, 0))
      .when(post(), context(60_000, 60_000))
      .thenFails('CONFLICT', { resource: 'message', conflictingField: 'status', messageId: REPLY_1 });
  });

  it('fails a reply streaming longer than the timeout, then goes on', () => {
    given(ev.started(), ev.userPosted(USER_1, 'Hi', 0), ev.replyStarted(REPLY_1, 0))
      .when(post(), context(60_001, 60_000))
      .then([
        { type: 'AssistantReplyFailed', data: { messageId: REPLY_1, error: REPLY_TIMED_OUT, partialText: '' } },
        { type: 'UserMessagePosted', data: { messageId: USER_2, content: 'And shipping?', pageContext: null } },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
      ]);
  });

  it('accepts a message after a failed reply', () => {
    given(ev.started(), ev.userPosted(USER_1, 'Hi'), ev.replyStarted(REPLY_1), ev.replyFailed(REPLY_1, 'boom'))
      .when(post())
      .then([
        { type: 'UserMessagePosted', data: { messageId: USER_2, content: 'And shipping?', pageContext: null } },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
      ]);
  });

  it('only records the message when a human agent handles the conversation', () => {
    given(...answered, ev.handoff())
      .when(post())
      .then([{ type: 'UserMessagePosted', data: { messageId: USER_2, content: 'And shipping?', pageContext: null } }]);
  });

  it('queues for the human agent even when closed or while a reply streams (state "any")', () => {
    given(ev.started(), ev.userPosted(USER_1, 'Hi'), ev.replyStarted(REPLY_1), ev.handoff(), ev.closed())
      .when(post())
      .then([{ type: 'UserMessagePosted', data: { messageId: USER_2, content: 'And shipping?', pageContext: null } }]);
  });

  it('refuses a message id already used in the conversation', () => {
    given(...answered)
      .when(post({ assistantMessageId: REPLY_1 }))
      .thenFails('CONFLICT', { resource: 'message', conflictingField: 'id', messageId: REPLY_1 });
  });
});

describe('CompleteReply and FailReply', () => {
  const streaming = [ev.started(), ev.userPosted(USER_1, 'Hi'), ev.replyStarted(REPLY_1)];

  it('completes a streaming reply', () => {
    given(...streaming)
      .when(complete())
      .then([{ type: 'AssistantReplyCompleted', data: { messageId: REPLY_1, text: 'Done.', finishReason: 'stop', usage: ZERO_USAGE } }]);
  });

  it('fails a streaming reply, keeping the partial text', () => {
    given(...streaming)
      .when(fail())
      .then([{ type: 'AssistantReplyFailed', data: { messageId: REPLY_1, error: 'model unavailable', partialText: 'Part' } }]);
  });

  it('still completes a reply after the visitor closed the conversation', () => {
    given(...streaming, ev.closed())
      .when(complete())
      .then([{ type: 'AssistantReplyCompleted', data: { messageId: REPLY_1, text: 'Done.', finishReason: 'stop', usage: ZERO_USAGE } }]);
  });

  it('does nothing for a reply already complete or failed', () => {
    given(...answered)
      .when(complete())
      .then([]);
    given(...answered)
      .when(fail())
      .then([]);
    given(...streaming, ev.replyFailed(REPLY_1, REPLY_TIMED_OUT))
      .when(complete())
      .then([]);
    given(...streaming, ev.replyFailed(REPLY_1, REPLY_TIMED_OUT))
      .when(fail())
      .then([]);
  });

  it('is MESSAGE_NOT_FOUND for an unknown or non-assistant message', () => {
    given(...streaming)
      .when(complete(REPLY_2))
      .thenFails('MESSAGE_NOT_FOUND', { messageId: REPLY_2 });
    given(...streaming)
      .when(fail(USER_1))
      .thenFails('MESSAGE_NOT_FOUND', { messageId: USER_1 });
  });

  it('is CONVERSATION_NOT_FOUND from another project', () => {
    given(...streaming)
      .when(complete(REPLY_1, OTHER_PROJECT))
      .thenFails('CONVERSATION_NOT_FOUND');
  });
});

describe('SetFeedback', () => {
  it('records feedback on an assistant message', () => {
    given(...answered)
      .when(feedback(REPLY_1, 'like'))
      .then([{ type: 'MessageFeedbackGiven', data: { messageId: REPLY_1, feedback: 'like', previous: null } }]);
  });

  it('overwrites the previous value', () => {
    given(...answered, ev.feedback(REPLY_1, 'like', null))
      .when(feedback(REPLY_1, 'dislike'))
      .then([{ type: 'MessageFeedbackGiven', data: { messageId: REPLY_1, feedback: 'dislike', previous: 'like' } }]);
  });

  it('records the same value again (feedbackAt moves)', () => {
    given(...answered, ev.feedback(REPLY_1, 'like', null))
      .when(feedback(REPLY_1, 'like'))
      .then([{ type: 'MessageFeedbackGiven', data: { messageId: REPLY_1, feedback: 'like', previous: 'like' } }]);
  });

  it('removes feedback with null, and removing nothing records nothing', () => {
    given(...answered, ev.feedback(REPLY_1, 'dislike', null))
      .when(feedback(REPLY_1, null))
      .then([{ type: 'MessageFeedbackGiven', data: { messageId: REPLY_1, feedback: null, previous: 'dislike' } }]);
    given(...answered)
      .when(feedback(REPLY_1, null))
      .then([]);
  });

  it('accepts feedback on a human agent message and in a closed conversation', () => {
    given(...answered, ev.handoff(), ev.agentPosted(AGENT_1, 'Hello'), ev.closed())
      .when(feedback(AGENT_1, 'like'))
      .then([{ type: 'MessageFeedbackGiven', data: { messageId: AGENT_1, feedback: 'like', previous: null } }]);
  });

  it('is VALIDATION_ERROR on a user message', () => {
    given(...answered)
      .when(feedback(USER_1, 'like'))
      .thenFails('VALIDATION_ERROR', { field: 'messageId' });
  });

  it('is MESSAGE_NOT_FOUND for a message not in the conversation', () => {
    given(...answered)
      .when(feedback(REPLY_2, 'like'))
      .thenFails('MESSAGE_NOT_FOUND', { messageId: REPLY_2 });
  });

  it('is FORBIDDEN for another visitor', () => {
    given(...answered)
      .when(feedback(REPLY_1, 'like', OTHER_VISITOR))
      .thenFails('FORBIDDEN');
  });
});

describe('Close', () => {
  it('closes an open conversation with its reason', () => {
    given(...answered)
      .when(close('resolved'))
      .then([{ type: 'ConversationClosed', data: { closeReason: 'resolved' } }]);
  });

  it('does nothing on a closed conversation', () => {
    given(...answered, ev.closed())
      .when(close())
      .then([]);
  });

  it('is FORBIDDEN for another visitor and CONVERSATION_NOT_FOUND when absent', () => {
    given(...answered)
      .when(close(null, OTHER_VISITOR))
      .thenFails('FORBIDDEN');
    given().when(close()).thenFails('CONVERSATION_NOT_FOUND');
  });
});

describe('Rate', () => {
  const rate = (score: number, comment: string | null = null, visitorId = VISITOR): ConversationCommand => ({
    type: 'Rate',
    ...scope,
    visitorId,
    score,
    comment,
  });
  const rated = (score: number, comment: string | null, previousScore: number | null) =>
    ({ type: 'ConversationRated', data: { score, comment, previousScore } }) as const;

  it('rates an open or a closed conversation', () => {
    given(...answered)
      .when(rate(4, 'Quick answer'))
      .then([rated(4, 'Quick answer', null)]);
    given(...answered, ev.closed())
      .when(rate(2))
      .then([rated(2, null, null)]);
  });

  it('replaces the rating, naming the previous score; the same rating again records nothing', () => {
    const first = { ...rated(3, null, null), occurredAt: new Date(0).toISOString() };
    given(...answered, first)
      .when(rate(5, 'Better now'))
      .then([rated(5, 'Better now', 3)]);
    given(...answered, first)
      .when(rate(3))
      .then([]);
  });

  it('is FORBIDDEN for another visitor and CONVERSATION_NOT_FOUND when absent', () => {
    given(...answered)
      .when(rate(5, null, OTHER_VISITOR))
      .thenFails('FORBIDDEN');
    given().when(rate(5)).thenFails('CONVERSATION_NOT_FOUND');
  });
});

describe('AgentClose', () => {
  const agentClose = (humanAgentId: string | null): ConversationCommand => ({
    type: 'AgentClose',
    ...on,
    humanAgentId,
    closeReason: 'solved',
  });
  const closed = [{ type: 'ConversationClosed', data: { closeReason: 'solved' } }] as const;

  it('closes a conversation its agent holds, or any by an admin call; a closed one records nothing', () => {
    given(...answered, ev.claimed(ADA_ID))
      .when(agentClose(ADA_ID))
      .then([...closed]);
    given(...answered)
      .when(agentClose(null))
      .then([...closed]);
    given(...answered, ev.claimed(ADA_ID), ev.closed())
      .when(agentClose(ADA_ID))
      .then([]);
  });

  it('is a CONFLICT for an agent who does not hold it', () => {
    given(...answered, ev.claimed(GRACE_ID, 'Grace'))
      .when(agentClose(ADA_ID))
      .thenFails('CONFLICT');
    given(...answered)
      .when(agentClose(ADA_ID))
      .thenFails('CONFLICT');
  });
});

describe('Handoff by an admin call (agent without identity)', () => {
  it('hands the conversation to a human agent', () => {
    given(...answered)
      .when(handoff())
      .then([{ type: 'HumanHandoffClaimed', data: { humanAgent: ada } }]);
  });

  it('does nothing when that agent already handles it, reassigns to another', () => {
    given(...answered, ev.handoff('Ada'))
      .when(handoff())
      .then([]);
    given(...answered, ev.handoff('Ada'))
      .when(handoff({ id: null, name: 'Grace', image: 'https://img.example/g.png' }))
      .then([{ type: 'HumanHandoffClaimed', data: { humanAgent: { id: null, name: 'Grace', image: 'https://img.example/g.png' } } }]);
  });

  it('is CONFLICT on a closed conversation and CONVERSATION_NOT_FOUND from another project', () => {
    given(...answered, ev.closed())
      .when(handoff())
      .thenFails('CONFLICT', { conflictingField: 'status' });
    given(...answered)
      .when(handoff(ada, OTHER_PROJECT))
      .thenFails('CONVERSATION_NOT_FOUND');
  });
});

describe('PostAgentMessage', () => {
  it.each([
    { as: 'the agent handling the conversation', handedOff: [ev.handoff('Ada')], humanAgentId: null },
    { as: 'the identified agent holding it, with its id', handedOff: [ev.requested(), ev.claimed()], humanAgentId: ADA_ID },
  ])('posts as $as', ({ handedOff, humanAgentId }) => {
    given(...answered, ...handedOff)
      .when({ ...agentPost, humanAgentId })
      .then([
        {
          type: 'HumanAgentMessagePosted',
          data: { messageId: AGENT_1, content: 'Hi, Ada here.', humanAgent: { name: 'Ada', image: null }, humanAgentId },
        },
      ]);
  });

  it('is CONFLICT for another agent than the holder, and while the conversation only waits', () => {
    given(...answered, ev.requested(), ev.claimed())
      .when({ ...agentPost, humanAgentId: GRACE_ID })
      .thenFails('CONFLICT', { conflictingField: 'humanAgent' });
    given(...answered, ev.requested())
      .when({ ...agentPost, humanAgentId: ADA_ID })
      .thenFails('CONFLICT', { conflictingField: 'isHumanHandled' });
  });

  it('is CONFLICT before a handoff', () => {
    given(...answered)
      .when(agentPost)
      .thenFails('CONFLICT', { resource: 'conversation', conflictingField: 'isHumanHandled' });
  });

  it('is CONFLICT on a closed conversation', () => {
    given(...answered, ev.handoff(), ev.closed())
      .when(agentPost)
      .thenFails('CONFLICT', { conflictingField: 'status' });
  });
});

describe('the handoff queue', () => {
  it('a visitor message with a trigger phrase queues the conversation and answers with the notice', () => {
    given(...answered)
      .when(post({ content: 'Can I talk to a human, please?', handoffTriggers: [] }))
      .then([
        { type: 'UserMessagePosted', data: { messageId: USER_2, content: 'Can I talk to a human, please?', pageContext: null } },
        { type: 'HumanHandoffRequested', data: { source: 'visitor', messageId: USER_2 } },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
        {
          type: 'AssistantReplyCompleted',
          data: { messageId: REPLY_2, text: HANDOFF_NOTICE, finishReason: 'stop', usage: ZERO_USAGE },
        },
      ]);
  });

  it('tells the visitor nobody can answer now with the offline notice, and still queues the conversation', () => {
    const offlineNotice = 'We are away until Monday: leave your email.';
    given(...answered)
      .when(post({ content: 'talk to a human', handoffTriggers: [], offlineNotice }))
      .then([
        { type: 'UserMessagePosted', data: { messageId: USER_2, content: 'talk to a human', pageContext: null } },
        { type: 'HumanHandoffRequested', data: { source: 'visitor', messageId: USER_2 } },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
        { type: 'AssistantReplyCompleted', data: { messageId: REPLY_2, text: offlineNotice, finishReason: 'stop', usage: ZERO_USAGE } },
      ]);
  });

  it("records the contact a visitor leaves on its own conversation, and refuses another visitor's", () => {
    const capture = (visitorId: string): ConversationCommand => ({
      type: 'CaptureContact',
      ...scope,
      visitorId,
      email: 'ana@example.com',
      name: 'Ana',
    });
    given(...answered)
      .when(capture(VISITOR))
      .then([{ type: 'ContactCaptured', data: { email: 'ana@example.com', name: 'Ana' } }]);
    given(...answered)
      .when(capture(PROJECT))
      .thenFails('FORBIDDEN');
    given().when(capture(VISITOR)).thenFails('CONVERSATION_NOT_FOUND');
  });

  it('ignores trigger phrases when handoff is off, and uses the project phrases when given', () => {
    given(...answered)
      .when(post({ content: 'talk to a human', handoffTriggers: null }))
      .then([
        { type: 'UserMessagePosted', data: { messageId: USER_2, content: 'talk to a human', pageContext: null } },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
      ]);
    const custom = decide(post({ content: 'Operator!', handoffTriggers: ['operator'] }));
    expect(custom.map((e) => e.type)).toContain('HumanHandoffRequested');
    const notListed = decide(post({ content: 'talk to a human', handoffTriggers: ['operator'] }));
    expect(notListed.map((e) => e.type)).not.toContain('HumanHandoffRequested');
  });

  it('requests once: asking again while it waits or is held records nothing', () => {
    given(...answered)
      .when(request)
      .then([{ type: 'HumanHandoffRequested', data: { source: 'agent', messageId: null } }]);
    given(...answered, ev.requested())
      .when(request)
      .then([]);
    given(...answered, ev.requested(), ev.claimed())
      .when(request)
      .then([]);
    given(...answered, ev.closed())
      .when(request)
      .thenFails('CONFLICT', { conflictingField: 'status' });
  });

  it('claims a waiting conversation from the queue; a second claim is CONFLICT', () => {
    given(...answered, ev.requested())
      .when(claim(adaAgent))
      .then([{ type: 'HumanHandoffClaimed', data: { humanAgent: adaAgent } }]);
    given(...answered, ev.requested(), ev.claimed())
      .when(claim(graceAgent))
      .thenFails('CONFLICT', { conflictingField: 'handoff' });
    given(...answered)
      .when(claim(adaAgent))
      .thenFails('CONFLICT', { conflictingField: 'handoff' });
  });

  it('takes a conversation directly unless another agent holds it; taking it again records nothing', () => {
    given(...answered)
      .when(claim(adaAgent, 'take'))
      .then([{ type: 'HumanHandoffClaimed', data: { humanAgent: adaAgent } }]);
    given(...answered, ev.requested(), ev.claimed())
      .when(claim(adaAgent, 'take'))
      .then([]);
    given(...answered, ev.requested(), ev.claimed())
      .when(claim(graceAgent, 'take'))
      .thenFails('CONFLICT', { conflictingField: 'humanAgent' });
  });

  it('releases to the assistant: only the holder (or an admin call); nothing when the AI has it', () => {
    given(...answered, ev.requested(), ev.claimed())
      .when(release())
      .then([{ type: 'HumanHandoffReleased', data: { humanAgentId: ADA_ID } }]);
    given(...answered, ev.requested(), ev.claimed())
      .when(release(GRACE_ID))
      .thenFails('CONFLICT', { conflictingField: 'humanAgent' });
    given(...answered, ev.requested(), ev.claimed())
      .when(release(null))
      .then([{ type: 'HumanHandoffReleased', data: { humanAgentId: null } }]);
    given(...answered)
      .when(release())
      .then([]);
  });

  it('requeues what its holder can no longer answer: released, then waiting again; only the holder, only while open', () => {
    const requeue = (humanAgentId = ADA_ID): ConversationCommand => ({ type: 'Requeue', ...on, humanAgentId });
    given(...answered, ev.requested(), ev.claimed())
      .when(requeue())
      .then([
        { type: 'HumanHandoffReleased', data: { humanAgentId: ADA_ID } },
        { type: 'HumanHandoffRequested', data: { source: 'admin', messageId: null } },
      ]);
    given(...answered, ev.requested(), ev.claimed())
      .when(requeue(GRACE_ID))
      .thenFails('CONFLICT', { conflictingField: 'humanAgent' });
    given(...answered, ev.requested())
      .when(requeue())
      .thenFails('CONFLICT', { conflictingField: 'humanAgent' });
    given(...answered, ev.requested(), ev.claimed(), ev.closed())
      .when(requeue())
      .thenFails('CONFLICT', { conflictingField: 'status' });
  });

  it('after a release the AI answers again', () => {
    given(...answered, ev.requested(), ev.claimed(), ev.released())
      .when(post())
      .then([
        { type: 'UserMessagePosted', data: { messageId: USER_2, content: 'And shipping?', pageContext: null } },
        { type: 'AssistantReplyStarted', data: { messageId: REPLY_2, assistantId: null } },
      ]);
  });

  it('folds the transitions: waiting, claimed, released', async () => {
    const { fold } = await import('./conversation.state');
    expect(fold([...answered, ev.requested()])).toMatchObject({ handoff: 'waiting', isHumanHandled: true, humanAgent: null });
    expect(fold([...answered, ev.requested(), ev.claimed()])).toMatchObject({ handoff: 'claimed', humanAgent: adaAgent });
    expect(fold([...answered, ev.requested(), ev.claimed(), ev.released()])).toMatchObject({
      handoff: 'none',
      isHumanHandled: false,
      humanAgent: null,
    });
  });
});

describe('RegenerateReply', () => {
  const regenerate = (messageId = REPLY_1): ConversationCommand => ({ type: 'RegenerateReply', ...scope, messageId, assistantId: null });

  it('restarts a finished assistant message under the same id', () => {
    given(...answered)
      .when(regenerate())
      .then([{ type: 'AssistantReplyRestarted', data: { messageId: REPLY_1, assistantId: null } }]);
  });

  it('is MESSAGE_NOT_FOUND for a user message, CONFLICT while streaming or human-handled', () => {
    given(...answered)
      .when(regenerate(USER_1))
      .thenFails('MESSAGE_NOT_FOUND');
    given(ev.started(), ev.userPosted(USER_1, 'Hi'), ev.replyStarted(REPLY_1))
      .when(regenerate())
      .thenFails('CONFLICT', { conflictingField: 'status' });
    given(...answered, ev.requested())
      .when(regenerate())
      .thenFails('CONFLICT', { conflictingField: 'isHumanHandled' });
  });
});

describe('evolve', () => {
  it('folds the stream into the state decisions need', async () => {
    const { fold } = await import('./conversation.state');
    const state = fold([...answered, ev.userPosted(USER_2, 'Second'), ev.feedback(REPLY_1, 'like', null), ev.handoff()]);
    expect(state).toMatchObject({
      status: 'open',
      projectId: PROJECT,
      visitorId: VISITOR,
      isHumanHandled: true,
      humanAgent: ada,
      handoff: 'claimed',
      title: 'What does it cost?',
    });
    if (state.status === 'none') throw new Error('no state');
    expect(state.messages.toArray().map((m) => [m.id, m.role, m.status, m.text, m.feedback])).toEqual([
      [USER_1, 'user', 'complete', 'What does it cost?', null],
      [REPLY_1, 'assistant', 'complete', '10 EUR', 'like'],
      [USER_2, 'user', 'complete', 'Second', null],
    ]);
  });
});

describe('messages by id', () => {
  it('are found in each of two states that branched off one (commands decided on the same version)', async () => {
    const { evolve, findMessage, fold } = await import('./conversation.state');
    const parent = fold(answered);
    // Both add their message at the same index, through the one shared map of positions.
    const left = evolve(parent, ev.userPosted(USER_2, 'Left'));
    const right = evolve(parent, ev.userPosted(AGENT_1, 'Right'));
    if (left.status === 'none' || right.status === 'none' || parent.status === 'none') throw new Error('no state');
    expect(findMessage(left, USER_2)?.text).toBe('Left');
    expect(findMessage(left, AGENT_1)).toBeUndefined();
    expect(findMessage(right, AGENT_1)?.text).toBe('Right');
    expect(findMessage(right, USER_2)).toBeUndefined();
    expect(findMessage(parent, USER_2)).toBeUndefined();
    expect(findMessage(right, REPLY_1)?.text).toBe('10 EUR');
    // A later state of a branch still finds what it holds.
    const later = evolve(evolve(left, ev.replyStarted(REPLY_2)), ev.replyCompleted(REPLY_2, 'done'));
    if (later.status === 'none') throw new Error('no state');
    expect(findMessage(later, USER_2)?.text).toBe('Left');
    expect(findMessage(later, REPLY_2)?.status).toBe('complete');
  });
});

describe('AddNote', () => {
  const NOTE = '00000000-0000-4000-8000-00000000a001';
  const note = (over: Partial<Extract<ConversationCommand, { type: 'AddNote' }>> = {}): ConversationCommand => ({
    type: 'AddNote',
    ...on,
    noteId: NOTE,
    content: 'VIP customer',
    author: graceAgent,
    ...over,
  });
  const added = { type: 'AgentNoteAdded', data: { noteId: NOTE, content: 'VIP customer', agent: graceAgent } } as const;

  it('records a note by any agent, whoever holds the conversation, open or closed', () => {
    given(...answered)
      .when(note())
      .then([added]);
    given(...answered, ev.requested(), ev.claimed(ADA_ID))
      .when(note())
      .then([added]);
    given(...answered, ev.closed())
      .when(note())
      .then([added]);
  });

  it('records a note id once (a retried command adds nothing)', () => {
    given(...answered, ev.noted(NOTE, 'VIP customer'))
      .when(note())
      .then([]);
    given(...answered, ev.noted(NOTE, 'VIP customer'))
      .when(note({ noteId: '00000000-0000-4000-8000-00000000a002' }))
      .then([{ ...added, data: { ...added.data, noteId: '00000000-0000-4000-8000-00000000a002' } }]);
  });

  it("does not find another project's, an unknown or an erased conversation", () => {
    given(...answered)
      .when(note({ projectId: OTHER_PROJECT }))
      .thenFails('CONVERSATION_NOT_FOUND');
    given().when(note()).thenFails('CONVERSATION_NOT_FOUND');
    given(...answered, { type: 'ConversationErased', data: { reason: 'request' }, occurredAt: answered[0]!.occurredAt })
      .when(note())
      .thenFails('CONVERSATION_NOT_FOUND');
  });
});
