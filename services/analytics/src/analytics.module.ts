import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { FeedbackConsumer } from './consumers/feedback.consumer';
import { AnalyticsHandler } from './handlers/analytics.handler';
import { AnalyticsProjection } from './projections/analytics.projection';
import { FeedRepository } from './repositories/feed.repository';
import { FeedbackDayRepository } from './repositories/feedback-day.repository';
import { MessageFeedbackRepository } from './repositories/message-feedback.repository';
import { FeedService } from './services/feed.service';
import { FeedbackSummaryService } from './services/feedback-summary.service';

@Module({})
export class AnalyticsModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: AnalyticsModule,
      controllers: [AnalyticsHandler],
      providers: [
        ...portProviders(infra, 'documents', 'eventStream'),
        FeedRepository,
        MessageFeedbackRepository,
        FeedbackDayRepository,
        AnalyticsProjection,
        FeedbackConsumer,
        FeedService,
        FeedbackSummaryService,
      ],
    };
  }
}
