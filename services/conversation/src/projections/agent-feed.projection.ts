import type { AgentEventType } from '@palaver/contracts';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import type { ConversationDoc } from '../repositories/read-model';

/** One entry of a project's agent feed: what happened, to which conversation, who held it then. */
export interface AgentFeedDoc {
  /** The event id: an event projected twice is recorded once. */
  _id: string;
  projectId: string;
  /** Order within the project: the SSE id of `GET /agent/v1/events`. */
  seq: number;
  type: AgentEventType;
  conversationId: string;
  humanAgentId: string | null;
  messageId: string | null;
  /** The note of `note.added` entries (its text stays in the sealed event). */
  noteId?: string;
  occurredAt: string;
  /** When it was written. */
  recordedAt: string;
}

/** How long a missing sequence holds the entries behind it back (see `untilGap`). */
export const GAP_GRACE_MS = 2_000;

/**
 * The entries (in sequence order, after `afterSeq`) up to the first missing sequence that may
 * still be filled. An entry takes its sequence before it is inserted, so of two written at once
 * the later one can be found first: a reader that moved past the missing one would never see it.
 * A sequence is given up on once the entry after it is GAP_GRACE_MS old: one taken by a racing
 * duplicate, or by a process that died before inserting, is never filled.
 */
export const untilGap = <T extends Pick<AgentFeedDoc, 'seq' | 'recordedAt'>>(entries: T[], afterSeq: number, nowMs: number): T[] => {
  let expected = afterSeq + 1;
  for (const [i, entry] of entries.entries()) {
    const recent = nowMs - Date.parse(entry.recordedAt) < GAP_GRACE_MS;
    if (entry.seq !== expected && recent) return entries.slice(0, i);
    expected = entry.seq + 1;
  }
  return entries;
};

/**
 * The agent feed's view of an event, given the conversation right after it: every handoff
 * transition, the messages and closing of conversations a person handles, and every internal
 * note. Conversations the AI answers leave nothing else here.
 */
export const agentFeedEntryOf = (
  event: StoredConversationEvent,
  after: ConversationDoc,
): Pick<AgentFeedDoc, 'type' | 'messageId' | 'noteId'> | null => {
  const handled = after.handoffStatus !== 'none';
  switch (event.type) {
    case 'HumanHandoffRequested':
      return { type: 'handoff.requested', messageId: null };
    case 'HumanHandoffClaimed':
      return { type: 'handoff.claimed', messageId: null };
    case 'HumanHandoffReleased':
      return { type: 'handoff.released', messageId: null };
    case 'HumanAgentMessagePosted':
      return { type: 'message.agent', messageId: event.data.messageId };
    case 'UserMessagePosted':
      return handled ? { type: 'message.visitor', messageId: event.data.messageId } : null;
    case 'ConversationClosed':
      return handled ? { type: 'conversation.closed', messageId: null } : null;
    case 'AgentNoteAdded':
      return { type: 'note.added', messageId: null, noteId: event.data.noteId };
    default:
      return null;
  }
};
