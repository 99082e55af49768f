import { describe, expect, it } from 'vitest';
import {
  dayDelta,
  evolveLatest,
  type FeedbackSubmission,
  type FeedbackSummaryState,
  initialFeedbackSummaryState,
  reduceFeedbackSummary,
  summarize,
  summaryOf,
  utcDay,
} from './feedback-summary.reducer';

const PROJECT = '11111111-1111-4111-8111-111111111111';
const M1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const M2 = 'aaaaaaaa-0000-4000-8000-000000000002';

let nextId = 0;
const submission = (
  over: Partial<FeedbackSubmission> & Pick<FeedbackSubmission, 'feedback' | 'previous' | 'version'>,
): FeedbackSubmission => ({
  eventId: `event-${++nextId}`,
  projectId: PROJECT,
  conversationId: 'cccccccc-0000-4000-8000-000000000001',
  messageId: M1,
  occurredAt: '2026-03-01T10:00:00.000Z',
  ...over,
});

const fold = (submissions: FeedbackSubmission[], from: FeedbackSummaryState = initialFeedbackSummaryState) =>
  submissions.reduce(reduceFeedbackSummary, from);

describe('feedback summary reducer', () => {
  it('counts a message by its latest value: like then dislike is one dislike and no like', () => {
    const state = fold([
      submission({ feedback: 'like', previous: null, version: 5 }),
      submission({ feedback: 'dislike', previous: 'like', version: 6 }),
    ]);
    expect(summaryOf(PROJECT, state)).toMatchObject({ likes: 0, dislikes: 1, removals: 0 });
  });

  it('counts like then removal as no like and one removal', () => {
    const state = fold([
      submission({ feedback: 'like', previous: null, version: 5 }),
      submission({ feedback: null, previous: 'like', version: 6 }),
    ]);
    expect(summaryOf(PROJECT, state)).toMatchObject({ likes: 0, dislikes: 0, removals: 1 });
  });

  it('counts each message once however often its value is set', () => {
    const state = fold([
      submission({ messageId: M1, feedback: 'like', previous: null, version: 3 }),
      submission({ messageId: M1, feedback: 'like', previous: 'like', version: 4 }),
      submission({ messageId: M2, feedback: 'like', previous: null, version: 7 }),
      submission({ messageId: M2, feedback: null, previous: 'like', version: 8 }),
      submission({ messageId: M2, feedback: 'dislike', previous: null, version: 9 }),
    ]);
    expect(summaryOf(PROJECT, state)).toMatchObject({ likes: 1, dislikes: 1, removals: 1 });
  });

  it('does not count clearing a message that had no feedback as a removal', () => {
    const state = fold([submission({ feedback: null, previous: null, version: 2 })]);
    expect(summaryOf(PROJECT, state)).toEqual({ projectId: PROJECT, likes: 0, dislikes: 0, removals: 0, byDay: [] });
  });

  it('puts each message under the UTC day of its latest value, so the days add up to the totals, oldest day first', () => {
    const state = fold([
      submission({ messageId: M1, feedback: 'like', previous: null, version: 2, occurredAt: '2026-03-02T23:59:59.999Z' }),
      submission({ messageId: M2, feedback: 'dislike', previous: null, version: 3, occurredAt: '2026-03-01T00:00:00.000Z' }),
      submission({ messageId: M1, feedback: 'dislike', previous: 'like', version: 4, occurredAt: '2026-03-03T00:00:00.000Z' }),
      submission({ messageId: M1, feedback: null, previous: 'dislike', version: 5, occurredAt: '2026-03-03T08:00:00.000Z' }),
    ]);
    // M1: liked on the 2nd, disliked then cleared on the 3rd: no like, no dislike, one removal.
    expect(summaryOf(PROJECT, state).byDay).toEqual([
      { day: '2026-03-01', likes: 0, dislikes: 1, removals: 0 },
      { day: '2026-03-03', likes: 0, dislikes: 0, removals: 1 },
    ]);
    expect(summaryOf(PROJECT, state)).toMatchObject({ likes: 0, dislikes: 1, removals: 1 });
  });

  it('moves a message to the day of its newer value: a like changed to a dislike the next day', () => {
    const state = fold([
      submission({ messageId: M1, feedback: 'like', previous: null, version: 2, occurredAt: '2026-03-01T09:00:00.000Z' }),
      submission({ messageId: M2, feedback: 'like', previous: null, version: 3, occurredAt: '2026-03-01T09:30:00.000Z' }),
      submission({ messageId: M1, feedback: 'dislike', previous: 'like', version: 4, occurredAt: '2026-03-02T10:00:00.000Z' }),
    ]);
    const summary = summaryOf(PROJECT, state);
    expect(summary.byDay).toEqual([
      { day: '2026-03-01', likes: 1, dislikes: 0, removals: 0 },
      { day: '2026-03-02', likes: 0, dislikes: 1, removals: 0 },
    ]);
    expect(summary).toMatchObject({ likes: 1, dislikes: 1, removals: 0 });
  });

  it('ignores the same event applied twice', () => {
    const like = submission({ feedback: 'like', previous: null, version: 5 });
    const removal = submission({ feedback: null, previous: 'like', version: 6 });
    const once = fold([like, removal]);
    const twice = fold([like, removal, removal, like]);
    expect(summaryOf(PROJECT, twice)).toEqual(summaryOf(PROJECT, once));
    expect(reduceFeedbackSummary(once, like)).toBe(once);
  });

  it('keeps the newer value when an older submission arrives late', () => {
    const state = fold([
      submission({ feedback: 'dislike', previous: 'like', version: 6 }),
      submission({ feedback: 'like', previous: null, version: 5 }),
    ]);
    expect(summaryOf(PROJECT, state)).toMatchObject({ likes: 0, dislikes: 1 });
    expect(summaryOf(PROJECT, state).byDay).toEqual([{ day: '2026-03-01', likes: 0, dislikes: 1, removals: 0 }]);
  });
});

describe('feedback summary parts', () => {
  it('evolveLatest returns null for a submission that is not newer', () => {
    const s = submission({ feedback: 'like', previous: null, version: 4 });
    const at = s.occurredAt;
    expect(evolveLatest(null, s)).toEqual({ feedback: 'like', version: 4, at });
    expect(evolveLatest({ version: 3 }, s)).toEqual({ feedback: 'like', version: 4, at });
    expect(evolveLatest({ version: 4 }, s)).toBeNull();
    expect(evolveLatest({ version: 9 }, s)).toBeNull();
  });

  it('dayDelta classifies like, dislike and removal', () => {
    expect(dayDelta(submission({ feedback: 'like', previous: 'dislike', version: 1 }))).toEqual({ likes: 1, dislikes: 0, removals: 0 });
    expect(dayDelta(submission({ feedback: 'dislike', previous: null, version: 1 }))).toEqual({ likes: 0, dislikes: 1, removals: 0 });
    expect(dayDelta(submission({ feedback: null, previous: 'dislike', version: 1 }))).toEqual({ likes: 0, dislikes: 0, removals: 1 });
    expect(dayDelta(submission({ feedback: null, previous: null, version: 1 }))).toEqual({ likes: 0, dislikes: 0, removals: 0 });
  });

  it('utcDay takes the UTC calendar day', () => {
    expect(utcDay('2026-12-31T23:59:59.999Z')).toBe('2026-12-31');
    expect(utcDay('2027-01-01T00:00:00.000Z')).toBe('2027-01-01');
  });

  it('summarize counts the latest values by day, drops empty days, sorts days and sums every column', () => {
    expect(
      summarize(
        PROJECT,
        [
          { feedback: 'like', at: '2026-03-01T08:00:00.000Z' },
          { feedback: 'dislike', at: '2026-03-01T09:00:00.000Z' },
          { feedback: 'like', at: '2026-03-01T23:59:59.999Z' },
        ],
        [
          { day: '2026-03-05', removals: 2 },
          { day: '2026-03-04', removals: 0 },
          { day: '2026-03-01', removals: 1 },
        ],
      ),
    ).toEqual({
      projectId: PROJECT,
      likes: 2,
      dislikes: 1,
      removals: 3,
      byDay: [
        { day: '2026-03-01', likes: 2, dislikes: 1, removals: 1 },
        { day: '2026-03-05', likes: 0, dislikes: 0, removals: 2 },
      ],
    });
  });
});
