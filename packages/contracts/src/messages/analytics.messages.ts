import { z } from 'zod';
import { Timestamp, Uuid } from '../common';
import { Ack, defineMessage } from './define';

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
  health: defineMessage('analytics.qry.health.v1', z.object({}), Ack),
} as const;
