import type { ConversationEvent } from '@palaver/contracts';

/** Why a visitor's question counts as unanswered. */
export type UnansweredReason = 'declined' | 'no-knowledge' | 'disliked';

/** A visitor's question, by id only: its text is personal (sealed in the stream, see docs/privacy.md). */
interface Question {
  messageId: string;
  at: string;
}

/** A reply and the question it answered, kept so a later dislike finds the question. */
interface AnsweredQuestion {
  replyId: string;
  question: Question;
}

/** What insights keeps of one conversation (`analytics_conversations`). */
export interface ConversationStats {
  projectId: string;
  conversationId: string;
  /** Stream version of the last event applied: older or repeated events change nothing. */
  version: number;
  startedAt: string;
  /** Visitor messages, completed replies and agent messages. */
  messages: number;
  /** First time a person was asked for or took the conversation. */
  handoffAt: string | null;
  firstAgentReplyAt: string | null;
  /** Replies whose latest feedback is a like / a dislike. */
  likes: number;
  dislikes: number;
  rating: number | null;
  /** The visitor's latest question no reply has started for yet. */
  pending: Question | null;
  /** The reply being generated and its question. */
  answering: AnsweredQuestion | null;
  /** The last replies and their questions, newest last (see MAX_RECENT). */
  recent: AnsweredQuestion[];
}

/** A change to the unanswered questions that an event makes. */
export type UnansweredChange =
  | { kind: 'add'; questionId: string; askedAt: string; reason: UnansweredReason }
  | { kind: 'withdraw'; questionId: string; reason: UnansweredReason };

/** Replies remembered for their question; a dislike of an older reply is not traced back. */
export const MAX_RECENT = 20;

export const emptyStats = (projectId: string, conversationId: string, startedAt: string): ConversationStats => ({
  projectId,
  conversationId,
  version: 0,
  startedAt,
  messages: 0,
  handoffAt: null,
  firstAgentReplyAt: null,
  likes: 0,
  dislikes: 0,
  rating: null,
  pending: null,
  answering: null,
  recent: [],
});

const count = (value: boolean): number => (value ? 1 : 0);

/**
 * The reason a completed reply leaves its question unanswered, or null when it answered. Read from
 * the flags inference sets on the clear text, never from the text (sealed in the stream).
 */
const unansweredBy = (grounded: boolean | undefined, declined: boolean | undefined): UnansweredReason | null => {
  if (declined === true) return 'declined';
  return grounded === false ? 'no-knowledge' : null;
};

/**
 * Applies one event (at `occurredAt`) to a conversation's stats: the new stats and the changes to
 * its unanswered questions. Pure; the caller skips events at or below `stats.version`.
 */
export const evolveStats = (
  stats: ConversationStats,
  event: ConversationEvent,
  occurredAt: string,
): { stats: ConversationStats; changes: UnansweredChange[] } => {
  const changes: UnansweredChange[] = [];
  let next: ConversationStats = stats;
  switch (event.type) {
    case 'ConversationStarted':
      next = { ...stats, startedAt: occurredAt };
      break;
    case 'UserMessagePosted':
      next = {
        ...stats,
        messages: stats.messages + 1,
        pending: { messageId: event.data.messageId, at: occurredAt },
      };
      break;
    case 'AssistantReplyStarted':
      next = stats.pending ? { ...stats, pending: null, answering: { replyId: event.data.messageId, question: stats.pending } } : stats;
      break;
    case 'AssistantReplyRestarted': {
      const earlier = stats.recent.find((r) => r.replyId === event.data.messageId);
      next = earlier ? { ...stats, answering: earlier, recent: stats.recent.filter((r) => r !== earlier) } : stats;
      break;
    }
    case 'AssistantReplyCompleted': {
      next = { ...stats, messages: stats.messages + 1 };
      const answering = stats.answering;
      if (answering?.replyId !== event.data.messageId) break;
      next = { ...next, answering: null, recent: [...stats.recent, answering].slice(-MAX_RECENT) };
      const reason = unansweredBy(event.data.grounded, event.data.declined);
      const { question } = answering;
      if (reason) changes.push({ kind: 'add', questionId: question.messageId, askedAt: question.at, reason });
      break;
    }
    case 'AssistantReplyFailed':
      next = stats.answering?.replyId === event.data.messageId ? { ...stats, answering: null } : stats;
      break;
    case 'MessageFeedbackGiven': {
      const { feedback, previous, messageId } = event.data;
      next = {
        ...stats,
        likes: stats.likes + count(feedback === 'like') - count(previous === 'like'),
        dislikes: stats.dislikes + count(feedback === 'dislike') - count(previous === 'dislike'),
      };
      const answered = stats.recent.find((r) => r.replyId === messageId);
      if (!answered || feedback === previous) break;
      const { question } = answered;
      if (feedback === 'dislike') {
        changes.push({ kind: 'add', questionId: question.messageId, askedAt: question.at, reason: 'disliked' });
      } else if (previous === 'dislike') {
        changes.push({ kind: 'withdraw', questionId: question.messageId, reason: 'disliked' });
      }
      break;
    }
    case 'HumanHandoffRequested':
    case 'HumanHandoffClaimed':
      next = { ...stats, handoffAt: stats.handoffAt ?? occurredAt };
      break;
    case 'HumanAgentMessagePosted':
      next = {
        ...stats,
        messages: stats.messages + 1,
        handoffAt: stats.handoffAt ?? occurredAt,
        firstAgentReplyAt: stats.firstAgentReplyAt ?? occurredAt,
      };
      break;
    case 'ConversationRated':
      next = { ...stats, rating: event.data.score };
      break;
    case 'ConversationErased':
      // Nothing left that leads to its messages (the projection drops its questions too).
      next = { ...stats, pending: null, answering: null, recent: [] };
      break;
    case 'ConversationClosed':
    case 'HumanHandoffReleased':
    case 'ContactCaptured':
    case 'AgentNoteAdded':
      break;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
  return { stats: next, changes };
};
