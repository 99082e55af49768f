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
    const [likes, dislikes, days] = await Promise.all([
      this.messages.countLatest(request.projectId, 'like'),
      this.messages.countLatest(request.projectId, 'dislike'),
      this.days.list(request.projectId),
    ]);
    return summarize(request.projectId, { likes, dislikes }, days);
  }
}
