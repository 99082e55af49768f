import { Inject, Injectable } from '@nestjs/common';
import type { FeedbackSummary } from '@palaver/contracts';
import { summarize } from '../domain/feedback-summary.reducer';
import { FeedbackDayRepository } from '../repositories/feedback-day.repository';
import { MessageFeedbackRepository } from '../repositories/message-feedback.repository';

@Injectable()
export class FeedbackSummaryService {
  constructor(
    @Inject(MessageFeedbackRepository) private readonly messages: MessageFeedbackRepository,
    @Inject(FeedbackDayRepository) private readonly days: FeedbackDayRepository,
  ) {}

  async feedbackSummary(request: { projectId: string }): Promise<FeedbackSummary> {
    const [latest, days] = await Promise.all([this.messages.latestValues(request.projectId), this.days.list(request.projectId)]);
    return summarize(request.projectId, latest, days);
  }
}
