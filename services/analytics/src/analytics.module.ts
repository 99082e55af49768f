import { type DynamicModule, Module } from '@nestjs/common';
import { AuditOutbox, type Infrastructure, portProviders } from '@palaver/platform';
import { FeedbackConsumer } from './consumers/feedback.consumer';
import { WebhookConsumer } from './consumers/webhook.consumer';
import { WebhookDeliveryWorker } from './consumers/webhook-delivery.worker';
import { AnalyticsHandler } from './handlers/analytics.handler';
import { InsightsHandler } from './handlers/insights.handler';
import { ProjectErasureHandler } from './handlers/project-erasure.handler';
import { WebhookHandler } from './handlers/webhook.handler';
import { AnalyticsProjection } from './projections/analytics.projection';
import { InsightsProjection } from './projections/insights.projection';
import { ConversationStatsRepository } from './repositories/conversation-stats.repository';
import { FeedRepository } from './repositories/feed.repository';
import { FeedbackDayRepository } from './repositories/feedback-day.repository';
import { MessageFeedbackRepository } from './repositories/message-feedback.repository';
import { webhookOutboundGuardProvider } from './repositories/outbound-guard.provider';
import { UnansweredRepository } from './repositories/unanswered.repository';
import { WebhookRepository } from './repositories/webhook.repository';
import { WebhookSender } from './repositories/webhook.sender';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { FeedService } from './services/feed.service';
import { FeedbackSummaryService } from './services/feedback-summary.service';
import { InsightsSummaryService } from './services/insights-summary.service';
import { ProjectAnalyticsErasureService } from './services/project-analytics-erasure.service';
import { UnansweredService } from './services/unanswered.service';
import { WebhookService } from './services/webhook.service';
import { WebhookDeliveryService } from './services/webhook-delivery.service';

@Module({})
export class AnalyticsModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: AnalyticsModule,
      controllers: [AnalyticsHandler, WebhookHandler, InsightsHandler, ProjectErasureHandler],
      providers: [
        ...portProviders(infra, 'documents', 'eventStream', 'jobs', 'services', 'clock', 'config'),
        FeedRepository,
        ProjectAnalyticsErasureService,
        MessageFeedbackRepository,
        FeedbackDayRepository,
        AnalyticsProjection,
        FeedbackConsumer,
        FeedService,
        FeedbackSummaryService,
        webhookOutboundGuardProvider,
        WebhookRepository,
        WebhookDeliveryRepository,
        WebhookSender,
        WebhookDeliveryService,
        WebhookService,
        WebhookConsumer,
        WebhookDeliveryWorker,
        ConversationStatsRepository,
        UnansweredRepository,
        InsightsProjection,
        InsightsSummaryService,
        UnansweredService,
        AuditOutbox,
      ],
    };
  }
}
