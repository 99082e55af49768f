import { AppError, type ConversationEvent, type StoredEvent, ZERO_USAGE } from '@palaver/contracts';
import { expect } from 'vitest';
import type { ConversationCommand, DecisionContext } from '../domain/conversation.commands';
import { decide } from '../domain/conversation.decider';
import { type DatedEvent, fold } from '../domain/conversation.state';
import { streamIdOf } from '../domain/conversation.stream';

export const PROJECT = '00000000-0000-4000-8000-00000000000a';
export const OTHER_PROJECT = '00000000-0000-4000-8000-00000000000b';
export const VISITOR = '00000000-0000-4000-8000-0000000000a1';
export const OTHER_VISITOR = '00000000-0000-4000-8000-0000000000a2';
export const CONVERSATION = '00000000-0000-4000-8000-0000000000c1';
export const USER_1 = '00000000-0000-4000-8000-000000000011';
export const USER_2 = '00000000-0000-4000-8000-000000000012';
export const REPLY_1 = '00000000-0000-4000-8000-000000000021';
export const REPLY_2 = '00000000-0000-4000-8000-000000000022';
export const AGENT_1 = '00000000-0000-4000-8000-000000000031';

/** Starts CONVERSATION for VISITOR. */
export const START = { type: 'Start', conversationId: CONVERSATION, projectId: PROJECT, visitorId: VISITOR, pageUrl: null } as const;

/** USER_1 says "Hello" in CONVERSATION, REPLY_1 to answer it. */
export const POST_HELLO = {
  type: 'PostUserMessage',
  conversationId: CONVERSATION,
  projectId: PROJECT,
  visitorId: VISITOR,
  messageId: USER_1,
  content: 'Hello',
  pageContext: null,
  assistantMessageId: REPLY_1,
  assistantId: null,
  handoffTriggers: null,
} as const;
/** Agent identities (people of the project). */
export const ADA_ID = '00000000-0000-4000-8000-0000000000d1';
export const GRACE_ID = '00000000-0000-4000-8000-0000000000d2';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
/** The time `ms` after the fixtures' epoch. */
export const at = (ms: number): string => new Date(T0 + ms).toISOString();

export const dated = (occurredAt: string, event: ConversationEvent): DatedEvent => ({ ...event, occurredAt }) as DatedEvent;

export const ev = {
  started: (t = 0, pageUrl: string | null = null) =>
    dated(at(t), { type: 'ConversationStarted', data: { projectId: PROJECT, visitorId: VISITOR, pageUrl } }),
  userPosted: (messageId: string, content: string, t = 0) =>
    dated(at(t), { type: 'UserMessagePosted', data: { messageId, content, pageContext: null } }),
  replyStarted: (messageId: string, t = 0) => dated(at(t), { type: 'AssistantReplyStarted', data: { messageId, assistantId: null } }),
  replyCompleted: (messageId: string, text: string, t = 0) =>
    dated(at(t), {
      type: 'AssistantReplyCompleted',
      data: { messageId, text, finishReason: 'stop', usage: ZERO_USAGE },
    }),
  replyFailed: (messageId: string, error: string, partialText = '', t = 0) =>
    dated(at(t), { type: 'AssistantReplyFailed', data: { messageId, error, partialText } }),
  feedback: (messageId: string, feedback: 'like' | 'dislike' | null, previous: 'like' | 'dislike' | null, t = 0) =>
    dated(at(t), { type: 'MessageFeedbackGiven', data: { messageId, feedback, previous } }),
  closed: (closeReason: string | null = null, t = 0) => dated(at(t), { type: 'ConversationClosed', data: { closeReason } }),
  /** A claim by an agent with no id (an admin's handoff naming a person). */
  handoff: (name: string | null = 'Ada', t = 0) =>
    dated(at(t), { type: 'HumanHandoffClaimed', data: { humanAgent: { id: null, name, image: null } } }),
  requested: (source: 'visitor' | 'agent' | 'admin' = 'visitor', messageId: string | null = null, t = 0) =>
    dated(at(t), { type: 'HumanHandoffRequested', data: { source, messageId } }),
  claimed: (id: string | null = ADA_ID, name: string | null = 'Ada', t = 0) =>
    dated(at(t), { type: 'HumanHandoffClaimed', data: { humanAgent: { id, name, image: null } } }),
  released: (humanAgentId: string | null = ADA_ID, t = 0) => dated(at(t), { type: 'HumanHandoffReleased', data: { humanAgentId } }),
  agentPosted: (messageId: string, content: string, name: string | null = 'Ada', t = 0) =>
    dated(at(t), { type: 'HumanAgentMessagePosted', data: { messageId, content, humanAgent: { name, image: null } } }),
  noted: (noteId: string, content: string, agentId: string | null = ADA_ID, t = 0) =>
    dated(at(t), { type: 'AgentNoteAdded', data: { noteId, content, agent: { id: agentId, name: 'Ada', image: null } } }),
};

/** Gives dated events the envelope the store adds: versions in order from 1. */
export const stored = (...events: DatedEvent[]): StoredEvent<ConversationEvent>[] =>
  events.map((event, i) => ({
    ...event,
    eventId: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    streamId: streamIdOf(CONVERSATION),
    version: i + 1,
    projectId: PROJECT,
  }));

export const context = (nowMs = 1_000, replyTimeoutMs = 60_000): DecisionContext => ({ now: at(nowMs), replyTimeoutMs });

/** given(events).when(command).then(events), or .thenFails(code, details). */
export const given = (...history: DatedEvent[]) => ({
  when: (command: ConversationCommand, ctx: DecisionContext = context()) => {
    const run = () => decide(command, fold(history), ctx);
    return {
      then: (expected: ConversationEvent[]) => expect(run()).toEqual(expected),
      thenFails: (code: AppError['code'], details?: Record<string, unknown>) => {
        let error: unknown;
        try {
          run();
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe(code);
        if (details) expect((error as AppError).details).toMatchObject(details);
      },
    };
  },
});
