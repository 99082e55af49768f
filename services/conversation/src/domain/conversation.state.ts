import type { ConversationEvent, Feedback, HumanAgentRef, MessageRole, MessageStatus } from '@palaver/contracts';
import { conversationTitle } from './conversation.title';
import { PersistentList } from './persistent-list';

/** A conversation event with the time the store recorded it (a `StoredEvent` is one). */
export type DatedEvent = ConversationEvent & { occurredAt: string };

export interface MessageState {
  readonly id: string;
  readonly role: MessageRole;
  readonly text: string;
  readonly status: MessageStatus;
  readonly feedback: Feedback | null;
  readonly createdAt: string;
}

export interface ExistingConversation {
  readonly status: 'open' | 'closed';
  readonly projectId: string;
  readonly visitorId: string;
  /** `waiting`: queued for an agent; `claimed`: an agent holds it. Either way the AI does not answer. */
  readonly handoff: HandoffStatus;
  readonly isHumanHandled: boolean;
  readonly humanAgent: HumanAgentRef | null;
  readonly title: string | null;
  /** Oldest first. */
  readonly messages: PersistentList<MessageState>;
  /** Where each message stands in `messages`, for look-ups by id (see `MessagePositions`). */
  readonly positions: MessagePositions;
  /** The assistant message being generated, if any (one at a time: a new reply fails a pending one first). */
  readonly streamingReplyId: string | null;
  /** The visitor's latest satisfaction rating, if any. */
  readonly rating: ConversationRating | null;
  /** Ids of its internal notes (their text is read from the events: no command needs it). */
  readonly noteIds: ReadonlySet<string>;
  /** Erased (docs/privacy.md): it is not there for any command any more, and keeps no text. */
  readonly erased?: true;
}

export interface ConversationRating {
  readonly score: number;
  readonly comment: string | null;
  readonly ratedAt: string;
}

export type HandoffStatus = 'none' | 'waiting' | 'claimed';

export type ConversationState = { readonly status: 'none' } | ExistingConversation;

export const initialState: ConversationState = { status: 'none' };

/**
 * Message ids to their index in `messages`. Messages are only ever appended, never moved, so one
 * map serves a conversation's every later state: it is shared between them and only added to, and
 * each look-up checks the message at the index it gives. A state that branched off an earlier one
 * (two commands decided on the same version) may hold another message there: then the look-up
 * scans. So a command costs the same in a long conversation as in a short one.
 */
export type MessagePositions = Map<string, number>;

/** Where the message stands in `state.messages`; -1 when it is not there. */
export const indexOfMessage = (state: ExistingConversation, messageId: string): number => {
  const at = state.positions.get(messageId);
  if (at === undefined) return -1;
  if (state.messages.at(at)?.id === messageId) return at;
  // Searched from the newest: the messages commands address are nearly always the last ones.
  for (let i = state.messages.length - 1; i >= 0; i--) if (state.messages.at(i)!.id === messageId) return i;
  return -1;
};

export const findMessage = (state: ExistingConversation, messageId: string): MessageState | undefined =>
  state.messages.at(indexOfMessage(state, messageId));

export const streamingReply = (state: ExistingConversation): MessageState | undefined =>
  state.streamingReplyId === null ? undefined : findMessage(state, state.streamingReplyId);

const updateMessage = (state: ExistingConversation, messageId: string, change: (m: MessageState) => MessageState): ExistingConversation => {
  const index = indexOfMessage(state, messageId);
  if (index < 0) return state;
  const changed = change(state.messages.at(index)!);
  const messages = state.messages.set(index, changed);
  return { ...state, messages, streamingReplyId: changed.status === 'streaming' ? messageId : streamingAfter(state, messageId) };
};

/** The reply still streaming once `messageId` no longer does: none if it was that one. */
const streamingAfter = (state: ExistingConversation, messageId: string): string | null =>
  state.streamingReplyId === messageId ? null : state.streamingReplyId;

const addMessage = (state: ExistingConversation, message: MessageState): ExistingConversation => {
  state.positions.set(message.id, state.messages.length);
  return {
    ...state,
    messages: state.messages.push(message),
    streamingReplyId: message.status === 'streaming' ? message.id : state.streamingReplyId,
  };
};

export const evolve = (state: ConversationState, event: DatedEvent): ConversationState => {
  if (event.type === 'ConversationStarted') {
    return {
      status: 'open',
      projectId: event.data.projectId,
      visitorId: event.data.visitorId,
      handoff: 'none',
      isHumanHandled: false,
      humanAgent: null,
      title: null,
      messages: PersistentList.empty(),
      positions: new Map(),
      streamingReplyId: null,
      rating: null,
      noteIds: new Set(),
    };
  }
  // Anything before a start belongs to no conversation.
  if (state.status === 'none') return state;

  switch (event.type) {
    case 'UserMessagePosted':
      return {
        ...addMessage(state, {
          id: event.data.messageId,
          role: 'user',
          text: event.data.content,
          status: 'complete',
          feedback: null,
          createdAt: event.occurredAt,
        }),
        title: state.title ?? conversationTitle(event.data.content),
      };
    case 'AssistantReplyStarted':
      return addMessage(state, {
        id: event.data.messageId,
        role: 'assistant',
        text: '',
        status: 'streaming',
        feedback: null,
        createdAt: event.occurredAt,
      });
    case 'AssistantReplyCompleted':
      return updateMessage(state, event.data.messageId, (m) => ({ ...m, text: event.data.text, status: 'complete' }));
    case 'AssistantReplyFailed':
      return updateMessage(state, event.data.messageId, (m) => ({
        ...m,
        text: event.data.partialText.length > 0 ? event.data.partialText : m.text,
        status: 'error',
      }));
    case 'MessageFeedbackGiven':
      return updateMessage(state, event.data.messageId, (m) => ({ ...m, feedback: event.data.feedback }));
    case 'ConversationClosed':
      return { ...state, status: 'closed' };
    case 'HumanHandoffRequested':
      return { ...state, handoff: 'waiting', isHumanHandled: true, humanAgent: null };
    case 'HumanHandoffClaimed':
      return { ...state, handoff: 'claimed', isHumanHandled: true, humanAgent: event.data.humanAgent };
    case 'HumanHandoffReleased':
      return { ...state, handoff: 'none', isHumanHandled: false, humanAgent: null };
    case 'ConversationRated':
      return { ...state, rating: { score: event.data.score, comment: event.data.comment, ratedAt: event.occurredAt } };
    case 'AssistantReplyRestarted':
      return updateMessage(state, event.data.messageId, (m) => ({ ...m, text: '', status: 'streaming', createdAt: event.occurredAt }));
    case 'ContactCaptured':
      return state;
    case 'AgentNoteAdded':
      return { ...state, noteIds: new Set(state.noteIds).add(event.data.noteId) };
    case 'HumanAgentMessagePosted':
      return addMessage(state, {
        id: event.data.messageId,
        role: 'human_agent',
        text: event.data.content,
        status: 'complete',
        feedback: null,
        createdAt: event.occurredAt,
      });
    case 'ConversationErased':
      return {
        ...state,
        erased: true,
        title: null,
        messages: PersistentList.empty(),
        positions: new Map(),
        streamingReplyId: null,
        noteIds: new Set(),
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

export const fold = (events: readonly DatedEvent[], from: ConversationState = initialState): ConversationState =>
  events.reduce(evolve, from);
