/**
 * Insights queries and the one command.
 *
 * insights-summary: figures about the conversations started in the range (see InsightsSummary).
 * list-unanswered: open groups of questions the assistant declined, found no knowledge for, or
 *   whose reply was disliked, asked in the range; most asked first.
 * answer-unanswered: creates a Q&A entry with the search service and marks the group answered
 *   (NOT_FOUND for a group of another project or none, CONFLICT when already answered).
 */
import { AnalyticsMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { InsightsSummaryService } from '../services/insights-summary.service';
import { UnansweredService } from '../services/unanswered.service';

export const InsightsHandler = messageHandlers(
  'InsightsHandler',
  { summaries: InsightsSummaryService, unanswered: UnansweredService },
  (on) => [
    on(M.insightsSummary, ({ summaries }, req) => summaries.summary(req)),
    on(M.listUnanswered, ({ unanswered }, req) => unanswered.list(req)),
    on(M.answerUnanswered, ({ unanswered }, req) => unanswered.answer(req)),
  ],
);
