/**
 * Insights queries and the one command.
 *
 * insights-summary: figures about the conversations started in the range (see InsightsSummary).
 * list-unanswered: open groups of questions the assistant declined, found no knowledge for, or
 *   whose reply was disliked, asked in the range; most asked first.
 * answer-unanswered: creates a Q&A entry with the search service and marks the group answered
 *   (NOT_FOUND for a group of another project or none, CONFLICT when already answered).
 */
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AnalyticsMessages } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { InsightsSummaryService } from '../services/insights-summary.service';
import { UnansweredService } from '../services/unanswered.service';

@Controller()
export class InsightsHandler {
  constructor(
    @Inject(InsightsSummaryService) private readonly summaries: InsightsSummaryService,
    @Inject(UnansweredService) private readonly unanswered: UnansweredService,
  ) {}

  @MessagePattern(AnalyticsMessages.insightsSummary.subject)
  summary(@Payload() raw: unknown) {
    return handle(AnalyticsMessages.insightsSummary, raw, (req) => this.summaries.summary(req));
  }

  @MessagePattern(AnalyticsMessages.listUnanswered.subject)
  listUnanswered(@Payload() raw: unknown) {
    return handle(AnalyticsMessages.listUnanswered, raw, (req) => this.unanswered.list(req));
  }

  @MessagePattern(AnalyticsMessages.answerUnanswered.subject)
  answerUnanswered(@Payload() raw: unknown) {
    return handle(AnalyticsMessages.answerUnanswered, raw, (req) => this.unanswered.answer(req));
  }
}
