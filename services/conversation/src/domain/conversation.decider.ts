import { AppError, type ConversationEvent } from '@palaver/contracts';
import type { ConversationCommand, DecisionContext } from './conversation.commands';
import { REPLY_TIMED_OUT } from './conversation.commands';
import { conflict, conversationForbidden, conversationNotFound, messageNotFound } from './conversation.errors';
import {
  type ConversationState,
  type ExistingConversation,
  findMessage,
  streamingReply,
} from './conversation.state';

export { evolve, fold, initialState } from './conversation.state';

/** The conversation as the command's sender may see it: another tenant's is not there at all. */
const owned = (command: ConversationCommand, state: ConversationState): ExistingConversation => {
  if (state.status === 'none' || state.projectId !== command.projectId) {
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

const ageMs = (from: string, now: string): number => Date.parse(now) - Date.parse(from);

/** The assistant message a reply command addresses, or MESSAGE_NOT_FOUND. */
const replyMessage = (state: ExistingConversation, messageId: string) => {
  const message = findMessage(state, messageId);
  if (!message || message.role !== 'assistant') throw messageNotFound(messageId);
  return message;
};

/**
 * Decisions:
 * - A human-handled conversation takes visitor messages whatever its status (the spec's state
 *   table: "any, isHumanHandled true"); they wait for the agent and no AI reply starts.
 * - Feedback equal to the current value is recorded again (a new event, so `feedbackAt` moves);
 *   removing feedback that is not there records nothing.
 * - Agents post only after a handoff (the message carries the handing-off agent) and not in a
 *   closed conversation; a handoff to the agent already handling it records nothing.
 */
export const decide = (command: ConversationCommand, state: ConversationState, context: DecisionContext): ConversationEvent[] => {
  switch (command.type) {
    case 'Start': {
      if (state.status !== 'none') {
        throw conflict('The conversation already exists', { resource: 'conversation', conflictingField: 'id' });
      }
      return [
        {
          type: 'ConversationStarted',
          data: { projectId: command.projectId, visitorId: command.visitorId, pageUrl: command.pageUrl },
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
      events.push(posted, {
        type: 'AssistantReplyStarted',
        data: { messageId: command.assistantMessageId, assistantId: command.assistantId },
      });
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
    case 'Handoff': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      const same =
        conversation.humanAgent !== null &&
        conversation.humanAgent.name === command.humanAgent.name &&
        conversation.humanAgent.image === command.humanAgent.image;
      if (conversation.isHumanHandled && same) return [];
      return [{ type: 'HumanHandoffStarted', data: { humanAgent: command.humanAgent } }];
    }
    case 'PostAgentMessage': {
      const conversation = owned(command, state);
      if (conversation.status === 'closed') throw closedConflict(command.conversationId);
      if (!conversation.isHumanHandled || conversation.humanAgent === null) {
        throw conflict('The conversation has not been handed off to a human agent', {
          resource: 'conversation',
          conflictingField: 'isHumanHandled',
          conversationId: command.conversationId,
        });
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
          data: { messageId: command.messageId, content: command.content, humanAgent: conversation.humanAgent },
        },
      ];
    }
    default: {
      const unreachable: never = command;
      throw new Error(`unknown command ${(unreachable as { type: string }).type}`);
    }
  }
};
