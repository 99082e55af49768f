/**
 * Analytics queries.
 *
 * list-events: the project's event feed, oldest first, in the order the events arrived.
 *   Feed types (see domain/feed-entry.mapper.ts): conversation.started, message.posted,
 *   reply.completed, reply.failed, feedback.given (like/dislike), feedback.removed (feedback
 *   null), conversation.handoff, conversation.closed, conversation.rated. `type` filters on a whole type or a
 *   category (`feedback` = both feedback types). Cursors are opaque strings; `nextCursor` is the
 *   last returned cursor, or the `after` given when nothing is newer (null without one), so a
 *   poller passing `after = nextCursor` keeps its place. An `after` this feed never issued is a
 *   VALIDATION_ERROR.
 * feedback-summary: likes / dislikes count messages by their latest feedback; removals count
 *   submissions that cleared a value; byDay splits the same counts by UTC day (a message under
 *   the day of its latest value, a removal under its own), so the days add up to the totals.
 */
import { AnalyticsMessages as M } from '@palaver/contracts';
import { answerHealth, messageHandlers } from '@palaver/platform';
import { FeedService } from '../services/feed.service';
import { FeedbackSummaryService } from '../services/feedback-summary.service';

export const AnalyticsHandler = messageHandlers('AnalyticsHandler', { feed: FeedService, summaries: FeedbackSummaryService }, (on) => [
  on(M.listEvents, ({ feed }, req) => feed.listEvents(req)),
  on(M.feedbackSummary, ({ summaries }, req) => summaries.feedbackSummary(req)),
  on(M.health, answerHealth),
]);
