import { AppError, type ConversationEvent } from '@palaver/contracts';
import type { ConversationCommand, DecisionContext } from './conversation.commands';
import { HANDOFF_NOTICE, REPLY_TIMED_OUT } from './conversation.commands';
import { conflict, conversationForbidden, conversationNotFound, messageNotFound } from './conversation.errors';
import { type ConversationState, type ExistingConversation, findMessage, streamingReply } from './conversation.state';
import { asksForHuman } from './handoff-trigger';

export { evolve, fold, initialState } from './conversation.state';

/** The conversation as the command's sender may see it: another tenant's is not there at all. */
const owned = (command: ConversationCommand, state: ConversationState): ExistingConversation => {
  if (state.status === 'none' || state.projectId !== command.projectId || state.erased) {
    throw conversationNotFound(command.conversationId);
  }
  if ('visitorId' in command && state.visitorId !== command.visitorId) throw conversationForbidden();
  return state;
};

const closedConflict = (conversationId: string): AppError =>
  conflict('The conversation is closed', {
    resource: 'conversation',
    conflictingField: 'status',
    conversationId,
    status: 'closed',
  });

const heldByAnother = (conversationId: string): AppError =>
  conflict('Another agent holds this conversation', {
    resource: 'conversation',
    conflictingField: 'humanAgent',
    conversationId,
  });

const ZERO_USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 };

const ageMs = (from: string, now: string): number => Date.parse(now) - Date.parse(from);

/** The assistant message a reply command addresses, or MESSAGE_NOT_FOUND. */
const replyMessage = (state: ExistingConversation, messageId: string) => {
  const message = findMessage(state, messageId);
  if (message?.role !== 'assistant') throw messageNotFound(messageId);
  return message;
};

/**
 * Decisions:
 * - A human-handled conversation takes visitor messages whatever its status (the spec's state
 *   table: "any, isHumanHandled true"); they wait for the agent and no AI reply starts.
 * - Feedback equal to the current value is recorded again (a new event, so `feedbackAt` moves);
 *   removing feedback that is not there records nothing.
 * - Handoff: a request queues the conversation (`waiting`); an agent claims it from the queue
 *   or takes it directly (`claimed`); a release hands it back to the assistant; a requeue (the
 *   holder left the project) releases it and queues it again. Agents identified
 *   by id never take a conversation another identified agent holds; an admin call (no agent id)
 *   may. Repeating the current state records nothing.
 * - A visitor message that asks for a person (project setting) queues the conversation, and the
 *   assistant's reply is a fixed notice instead of a generated answer.
 * - Agents post only while they hold the conversation and not in a closed conversation.
 * - A rating (CSAT) is one per conversation: rating again replaces it, in any status.
 * - Any agent of the project adds internal notes, holding the conversation or not, open or
 *   closed; a note id already there records nothing (a retried command).
 */
export const decide = (command: ConversationCommand, state: ConversationState, context: DecisionContext): ConversationEvent[] => {
  // An erased conversation is not there for anyone: no command reaches it, its id is not reused.
  if (state.status !== 'none' && state.erased) {
    if (command.type === 'EraseConversation' && state.projectId === command.projectId) return [];
    throw conversationNotFound(command.conversationId);
  }
  switch (command.type) {
    case 'EraseConversation': {
      owned(command, state);
      return [{ type: 'ConversationErased', data: { reason: command.reason } }];
    }
    case 'Start': {
      // Another project's id is not there for this caller: a 409 would say it exists.
      if (state.status !== 'none' && state.projectId !== command.projectId) throw conversationNotFound(command.conversationId);
      if (state.status !== 'none') {
        throw conflict('The conversation already exists', { resource: 'conversation', conflictingField: 'id' });
      }
      return [
        {
          type: 'ConversationStarted',
          data: {
            projectId: command.projectId,
            visitorId: command.visitorId,
            pageUrl: command.pageUrl,
            ...(command.userAgent ? { userAgent: command.userAgent } : {}),
          },
        },
      ];
    }
    case 'PostUserMessage': {
      const conversation = owned(command, state);
      for (const id of [command.messageId, command.assistantMessageId]) {
        if (findMessage(conversation, id)) {
          throw conflict('A message with this id already exists', { resource: 'message', conflictingField: 'id', messageId: id });
        }
      }
      const posted: ConversationEvent = {
        type: 'UserMessagePosted',
        data: { messageId: command.messageId, content: command.content, pageContext: command.pageContext },
      };
      if (conversation.isHumanHandled) return [posted];
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      const wantsHuman = command.handoffTriggers !== null && asksForHuman(command.content, command.handoffTriggers);

      const events: ConversationEvent[] = [];
      const pending = streamingReply(conversation);
      if (pending) {
        if (ageMs(pending.createdAt, context.now) <= context.replyTimeoutMs) {
          throw conflict('The assistant is still replying to the previous message', {
            resource: 'message',
            conflictingField: 'status',
            messageId: pending.id,
            status: 'streaming',
          });
        }
        events.push({
          type: 'AssistantReplyFailed',
          data: { messageId: pending.id, error: REPLY_TIMED_OUT, partialText: '' },
        });
      }
      events.push(posted);
      if (wantsHuman) {
        events.push({ type: 'HumanHandoffRequested', data: { source: 'visitor', messageId: command.messageId } });
      }
      events.push({
        type: 'AssistantReplyStarted',
        data: { messageId: command.assistantMessageId, assistantId: command.assistantId },
      });
      if (wantsHuman) {
        events.push({
          type: 'AssistantReplyCompleted',
          data: {
            messageId: command.assistantMessageId,
            text: command.offlineNotice ?? HANDOFF_NOTICE,
            finishReason: 'stop',
            usage: ZERO_USAGE,
          },
        });
      }
      return events;
    }
    case 'CompleteReply': {
      const conversation = owned(command, state);
      if (replyMessage(conversation, command.messageId).status !== 'streaming') return [];
      return [
        {
          type: 'AssistantReplyCompleted',
          data: {
            messageId: command.messageId,
            text: command.text,
            finishReason: command.finishReason,
            usage: command.usage,
            ...(command.sources ? { sources: command.sources } : {}),
            ...(command.grounded === undefined ? {} : { grounded: command.grounded }),
            ...(command.declined === undefined ? {} : { declined: command.declined }),
          },
        },
      ];
    }
    case 'FailReply': {
      const conversation = owned(command, state);
      if (replyMessage(conversation, command.messageId).status !== 'streaming') return [];
      return [
        {
          type: 'AssistantReplyFailed',
          data: { messageId: command.messageId, error: command.error, partialText: command.partialText },
        },
      ];
    }
    case 'SetFeedback': {
      const conversation = owned(command, state);
      const message = findMessage(conversation, command.messageId);
      if (!message) throw messageNotFound(command.messageId);
      if (message.role === 'user') {
        throw new AppError('VALIDATION_ERROR', 'Feedback can only be given on assistant and human agent messages', {
          field: 'messageId',
          reason: 'feedback is not accepted on user messages',
        });
      }
      if (command.feedback === null && message.feedback === null) return [];
      return [
        {
          type: 'MessageFeedbackGiven',
          data: { messageId: command.messageId, feedback: command.feedback, previous: message.feedback },
        },
      ];
    }
    case 'Close': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') return [];
      return [{ type: 'ConversationClosed', data: { closeReason: command.closeReason } }];
    }
    case 'Rate': {
      // Open or closed: visitors are asked once the conversation ends. The same rating again records nothing.
      const conversation = owned(command, state);
      const current = conversation.rating;
      if (current && current.score === command.score && current.comment === command.comment) return [];
      return [
        { type: 'ConversationRated', data: { score: command.score, comment: command.comment, previousScore: current?.score ?? null } },
      ];
    }
    case 'CaptureContact': {
      owned(command, state);
      return [{ type: 'ContactCaptured', data: { email: command.email, name: command.name } }];
    }
    case 'RequestHandoff': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      if (conversation.isHumanHandled) return [];
      return [{ type: 'HumanHandoffRequested', data: { source: command.source, messageId: command.messageId } }];
    }
    case 'Claim': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      const holder = conversation.handoff === 'claimed' ? conversation.humanAgent : null;
      const agent = command.humanAgent;
      if (command.mode === 'queue' && conversation.handoff !== 'waiting') {
        throw conflict('The conversation is not waiting for an agent', {
          resource: 'conversation',
          conflictingField: 'handoff',
          conversationId: command.conversationId,
        });
      }
      if (holder && holder.id !== null && agent.id !== null && holder.id !== agent.id) {
        throw heldByAnother(command.conversationId);
      }
      const same = holder !== null && holder.id === agent.id && holder.name === agent.name && holder.image === agent.image;
      if (same) return [];
      return [{ type: 'HumanHandoffClaimed', data: { humanAgent: agent } }];
    }
    case 'Release': {
      const conversation = owned(command, state);
      if (!conversation.isHumanHandled) return [];
      if (command.humanAgentId !== null && conversation.humanAgent?.id !== command.humanAgentId) {
        throw heldByAnother(command.conversationId);
      }
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      return [{ type: 'HumanHandoffReleased', data: { humanAgentId: command.humanAgentId } }];
    }
    case 'Requeue': {
      const conversation = owned(command, state);
      if (conversation.handoff !== 'claimed' || conversation.humanAgent?.id !== command.humanAgentId) {
        throw heldByAnother(command.conversationId);
      }
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      // Released by its holder, then queued again: the visitor asked for a person and still waits for one.
      return [
        { type: 'HumanHandoffReleased', data: { humanAgentId: command.humanAgentId } },
        { type: 'HumanHandoffRequested', data: { source: 'admin', messageId: null } },
      ];
    }
    case 'AgentClose': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') return [];
      if (command.humanAgentId !== null && (conversation.handoff !== 'claimed' || conversation.humanAgent?.id !== command.humanAgentId)) {
        throw heldByAnother(command.conversationId);
      }
      return [{ type: 'ConversationClosed', data: { closeReason: command.closeReason } }];
    }
    case 'AddNote': {
      // Closed conversations take notes too: the team follows up on them.
      const conversation = owned(command, state);
      if (conversation.noteIds.has(command.noteId)) return [];
      return [{ type: 'AgentNoteAdded', data: { noteId: command.noteId, content: command.content, agent: command.author } }];
    }
    case 'RegenerateReply': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      if (conversation.isHumanHandled) {
        throw conflict('A human agent handles this conversation', {
          resource: 'conversation',
          conflictingField: 'isHumanHandled',
          conversationId: command.conversationId,
        });
      }
      const message = replyMessage(conversation, command.messageId);
      const pending = streamingReply(conversation);
      if (pending && ageMs(pending.createdAt, context.now) <= context.replyTimeoutMs) {
        throw conflict('The assistant is still replying', {
          resource: 'message',
          conflictingField: 'status',
          messageId: pending.id,
          status: 'streaming',
        });
      }
      const events: ConversationEvent[] = [];
      if (pending) events.push({ type: 'AssistantReplyFailed', data: { messageId: pending.id, error: REPLY_TIMED_OUT, partialText: '' } });
      events.push({ type: 'AssistantReplyRestarted', data: { messageId: message.id, assistantId: command.assistantId } });
      return events;
    }
    case 'PostAgentMessage': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      if (conversation.handoff !== 'claimed' || conversation.humanAgent === null) {
        throw conflict('No human agent holds this conversation', {
          resource: 'conversation',
          conflictingField: 'isHumanHandled',
          conversationId: command.conversationId,
        });
      }
      if (command.humanAgentId !== null && conversation.humanAgent.id !== command.humanAgentId) {
        throw heldByAnother(command.conversationId);
      }
      if (findMessage(conversation, command.messageId)) {
        throw conflict('A message with this id already exists', {
          resource: 'message',
          conflictingField: 'id',
          messageId: command.messageId,
        });
      }
      return [
        {
          type: 'HumanAgentMessagePosted',
          data: {
            messageId: command.messageId,
            content: command.content,
            humanAgent: { name: conversation.humanAgent.name, image: conversation.humanAgent.image },
            humanAgentId: conversation.humanAgent.id,
          },
        },
      ];
    }
    default: {
      const unreachable: never = command;
      throw new Error(`unknown command ${(unreachable as { type: string }).type}`);
    }
  }
};
