import type { Feedback, FeedbackSummary } from '@palaver/contracts';

/** One MessageFeedbackGiven event, as the feedback summary sees it. */
export interface FeedbackSubmission {
  eventId: string;
  projectId: string;
  conversationId: string;
  messageId: string;
  feedback: Feedback | null;
  previous: Feedback | null;
  /** Version in the conversation's stream: orders the submissions for one message. */
  version: number;
  occurredAt: string;
}

/** A message's latest feedback, the stream version it came from and when it was given. */
export interface LatestFeedback {
  feedback: Feedback | null;
  version: number;
  at: string;
}

export interface DayCounts {
  likes: number;
  dislikes: number;
  removals: number;
}

export interface DayCountsOf extends DayCounts {
  day: string;
}

export const ZERO_COUNTS: DayCounts = { likes: 0, dislikes: 0, removals: 0 };

/**
 * The message's latest feedback after the submission, or null when the submission is not newer
 * than what is already known (a redelivery or a stale event): the caller then changes nothing.
 */
export const evolveLatest = (current: Pick<LatestFeedback, 'version'> | null, submission: FeedbackSubmission): LatestFeedback | null =>
  current !== null && current.version >= submission.version
    ? null
    : { feedback: submission.feedback, version: submission.version, at: submission.occurredAt };

/** What one submission adds to its day. Clearing a message that had no feedback removes nothing. */
export const dayDelta = (submission: FeedbackSubmission): DayCounts => ({
  likes: submission.feedback === 'like' ? 1 : 0,
  dislikes: submission.feedback === 'dislike' ? 1 : 0,
  removals: submission.feedback === null && submission.previous !== null ? 1 : 0,
});

/** The UTC calendar day (YYYY-MM-DD) an event occurred on. */
export const utcDay = (occurredAt: string): string => new Date(occurredAt).toISOString().slice(0, 10);

export const addCounts = (a: DayCounts, b: DayCounts): DayCounts => ({
  likes: a.likes + b.likes,
  dislikes: a.dislikes + b.dislikes,
  removals: a.removals + b.removals,
});

/**
 * The summary answer, whose days add up to its totals. likes / dislikes: messages whose latest
 * feedback is that value, each under the UTC day that value was given (a like changed to a
 * dislike the next day is one dislike, on that next day); removals: submissions that cleared a
 * value, under their day. Days oldest first, empty days left out.
 */
export const summarize = (
  projectId: string,
  latest: Iterable<Pick<LatestFeedback, 'feedback' | 'at'>>,
  removalsByDay: Pick<DayCountsOf, 'day' | 'removals'>[],
): FeedbackSummary => {
  const days = new Map<string, DayCounts>();
  const dayOf = (day: string): DayCounts => {
    const known = days.get(day);
    if (known) return known;
    const counts = { ...ZERO_COUNTS };
    days.set(day, counts);
    return counts;
  };
  for (const { feedback, at } of latest) {
    if (feedback === 'like') dayOf(utcDay(at)).likes += 1;
    else if (feedback === 'dislike') dayOf(utcDay(at)).dislikes += 1;
  }
  for (const { day, removals } of removalsByDay) if (removals > 0) dayOf(day).removals += removals;
  const byDay = [...days].map(([day, counts]) => ({ day, ...counts })).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const total = byDay.reduce(addCounts, ZERO_COUNTS);
  return { projectId, likes: total.likes, dislikes: total.dislikes, removals: total.removals, byDay };
};

/**
 * The whole feedback summary of one project as a fold over its submissions. The store keeps the
 * same state split by key (latest per message, counters per day, applied event ids) and updates
 * it with `evolveLatest` and `dayDelta`; this fold is their reference semantics.
 */
export interface FeedbackSummaryState {
  latest: ReadonlyMap<string, LatestFeedback>;
  days: ReadonlyMap<string, DayCounts>;
  applied: ReadonlySet<string>;
}

export const initialFeedbackSummaryState: FeedbackSummaryState = { latest: new Map(), days: new Map(), applied: new Set() };

export const reduceFeedbackSummary = (state: FeedbackSummaryState, submission: FeedbackSubmission): FeedbackSummaryState => {
  if (state.applied.has(submission.eventId)) return state;
  const next = evolveLatest(state.latest.get(submission.messageId) ?? null, submission);
  const day = utcDay(submission.occurredAt);
  return {
    latest: next ? new Map(state.latest).set(submission.messageId, next) : state.latest,
    days: new Map(state.days).set(day, addCounts(state.days.get(day) ?? ZERO_COUNTS, dayDelta(submission))),
    applied: new Set(state.applied).add(submission.eventId),
  };
};

export const summaryOf = (projectId: string, state: FeedbackSummaryState): FeedbackSummary =>
  summarize(
    projectId,
    state.latest.values(),
    [...state.days].map(([day, counts]) => ({ day, removals: counts.removals })),
  );
