import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { FeedbackConsumer } from './consumers/feedback.consumer';
import { AnalyticsHandler } from './handlers/analytics.handler';
import { InsightsHandler } from './handlers/insights.handler';
import { AnalyticsProjection } from './projections/analytics.projection';
import { InsightsProjection } from './projections/insights.projection';
import { ConversationStatsRepository } from './repositories/conversation-stats.repository';
import { FeedRepository } from './repositories/feed.repository';
import { FeedbackDayRepository } from './repositories/feedback-day.repository';
import { MessageFeedbackRepository } from './repositories/message-feedback.repository';
import { UnansweredRepository } from './repositories/unanswered.repository';
import { FeedService } from './services/feed.service';
import { FeedbackSummaryService } from './services/feedback-summary.service';
import { InsightsSummaryService } from './services/insights-summary.service';
import { UnansweredService } from './services/unanswered.service';

@Module({})
export class AnalyticsModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: AnalyticsModule,
      controllers: [AnalyticsHandler, InsightsHandler],
      providers: [
        ...portProviders(infra, 'documents', 'eventStream', 'services', 'clock'),
        FeedRepository,
        MessageFeedbackRepository,
        FeedbackDayRepository,
        AnalyticsProjection,
        FeedbackConsumer,
        FeedService,
        FeedbackSummaryService,
        ConversationStatsRepository,
        UnansweredRepository,
        InsightsProjection,
        InsightsSummaryService,
        UnansweredService,
      ],
    };
  }
}
