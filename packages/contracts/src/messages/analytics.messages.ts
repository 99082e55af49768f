import { z } from 'zod';
import { Actor } from '../accounts/audit';
import { Timestamp, Uuid } from '../common';
import { InsightsSummary, UnansweredGroup, UnansweredList } from '../insights/insights';
import { Qna } from '../v2/qna';
import { Ack, defineMessage } from './define';

/** A normalized insights range (ISO timestamps): `from` inclusive, `to` exclusive. */
const RangeScope = z.object({ projectId: Uuid, from: Timestamp.optional(), to: Timestamp.optional() });

export const AnalyticsEvent = z.object({
  /** Opaque, increasing cursor of this event in the project's feed. */
  cursor: z.string(),
  eventId: Uuid,
  type: z.string(),
  occurredAt: Timestamp,
  conversationId: Uuid,
  data: z.record(z.string(), z.unknown()),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

export const FeedbackDay = z.object({ day: z.string(), likes: z.number().int(), dislikes: z.number().int(), removals: z.number().int() });
export const FeedbackSummary = z.object({
  projectId: Uuid,
  /** Messages whose latest feedback is like / dislike. */
  likes: z.number().int(),
  dislikes: z.number().int(),
  /** Feedback submissions that removed a previous value. */
  removals: z.number().int(),
  /** The same counts by UTC day (a message under the day of its latest value): they add up to the totals. */
  byDay: z.array(FeedbackDay),
});
export type FeedbackSummary = z.infer<typeof FeedbackSummary>;

export const AnalyticsMessages = {
  listEvents: defineMessage(
    'analytics.qry.list-events.v1',
    z.object({
      projectId: Uuid,
      type: z.string().max(100).optional(),
      after: z.string().max(100).optional(),
      limit: z.number().int().min(1).max(500),
    }),
    z.object({ data: z.array(AnalyticsEvent), nextCursor: z.string().nullable() }),
  ),
  feedbackSummary: defineMessage('analytics.qry.feedback-summary.v1', z.object({ projectId: Uuid }), FeedbackSummary),
  insightsSummary: defineMessage('analytics.qry.insights-summary.v1', RangeScope, InsightsSummary),
  /** Open groups of unanswered questions asked in the range, most asked first. */
  listUnanswered: defineMessage('analytics.qry.list-unanswered.v1', RangeScope, UnansweredList),
  /** Creates the Q&A entry (question: the group's, unless given) and marks the group answered. */
  answerUnanswered: defineMessage(
    'analytics.cmd.answer-unanswered.v1',
    z.object({
      projectId: Uuid,
      actor: Actor,
      groupId: Uuid,
      question: z.string().min(1).max(2000).optional(),
      answer: z.string().min(1).max(20_000),
    }),
    z.object({ group: UnansweredGroup, qna: Qna }),
  ),
  health: defineMessage('analytics.qry.health.v1', z.object({}), Ack),
} as const;
