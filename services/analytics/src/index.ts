import { type Infrastructure, type RunningService, startService } from '@palaver/platform';
import { AnalyticsModule } from './analytics.module';

export { AnalyticsModule } from './analytics.module';
export { ANALYTICS_CONSUMER } from './consumers/feedback.consumer';
export { WEBHOOK_CONSUMER } from './consumers/webhook.consumer';

/** Answers AnalyticsMessages and consumes conversation events from the durable stream while running. */
export const startAnalyticsService = (infra: Infrastructure): Promise<RunningService> =>
  startService('analytics', AnalyticsModule.register(infra), infra);
