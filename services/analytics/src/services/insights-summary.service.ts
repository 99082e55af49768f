import { Inject, Injectable } from '@nestjs/common';
import type { InsightsSummary } from '@palaver/contracts';
import { summarize } from '../domain/insights-summary';
import { ConversationStatsRepository } from '../repositories/conversation-stats.repository';

@Injectable()
export class InsightsSummaryService {
  constructor(@Inject(ConversationStatsRepository) private readonly stats: ConversationStatsRepository) {}

  async summary(request: { projectId: string; from?: string; to?: string }): Promise<InsightsSummary> {
    return summarize(await this.stats.startedBetween(request.projectId, request.from, request.to));
  }
}
