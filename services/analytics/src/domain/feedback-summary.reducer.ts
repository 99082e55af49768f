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

/** A message's latest feedback and the stream version it came from. */
export interface LatestFeedback {
  feedback: Feedback | null;
  version: number;
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
export const evolveLatest = (current: LatestFeedback | null, submission: FeedbackSubmission): LatestFeedback | null =>
  current !== null && current.version >= submission.version ? null : { feedback: submission.feedback, version: submission.version };

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

/** likes / dislikes: how many messages have that as their latest value. */
export const countLatest = (latest: Iterable<LatestFeedback>): { likes: number; dislikes: number } => {
  let likes = 0;
  let dislikes = 0;
  for (const { feedback } of latest) {
    if (feedback === 'like') likes += 1;
    else if (feedback === 'dislike') dislikes += 1;
  }
  return { likes, dislikes };
};

/** The summary answer: days oldest first, days without submissions left out, removals summed over the days. */
export const summarize = (projectId: string, latest: { likes: number; dislikes: number }, days: DayCountsOf[]): FeedbackSummary => {
  const byDay = days
    .filter((d) => d.likes + d.dislikes + d.removals > 0)
    .map(({ day, likes, dislikes, removals }) => ({ day, likes, dislikes, removals }))
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const removals = byDay.reduce((sum, d) => sum + d.removals, 0);
  return { projectId, likes: latest.likes, dislikes: latest.dislikes, removals, byDay };
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
    countLatest(state.latest.values()),
    [...state.days].map(([day, counts]) => ({ day, ...counts })),
  );
