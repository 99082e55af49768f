import { Inject, Injectable } from '@nestjs/common';
import { type DocumentStore, Ports } from '@palaver/platform';
import { ConversationStatsRepository } from '../repositories/conversation-stats.repository';
import { FeedRepository } from '../repositories/feed.repository';
import { FeedbackDayRepository } from '../repositories/feedback-day.repository';
import { MessageFeedbackRepository } from '../repositories/message-feedback.repository';
import { UnansweredRepository } from '../repositories/unanswered.repository';
import { WebhookRepository } from '../repositories/webhook.repository';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository';

/** The collections a deleted project leaves rows in: rewritten without them. */
const ANALYTICS_COLLECTIONS = [
  'analytics_events',
  'analytics_feedback',
  'analytics_feedback_days',
  'analytics_conversations',
  'analytics_unanswered',
  'analytics_unanswered_groups',
  'webhooks',
  'webhook_deliveries',
];

/**
 * A deleted project's analytics (docs/privacy.md): its events feed, feedback, insights, webhooks
 * and their deliveries (which carried the events' payloads), deleted outright; no count is kept
 * for a project that no longer exists. Idempotent.
 */
@Injectable()
export class ProjectAnalyticsErasureService {
  constructor(
    @Inject(FeedRepository) private readonly feed: FeedRepository,
    @Inject(MessageFeedbackRepository) private readonly feedback: MessageFeedbackRepository,
    @Inject(FeedbackDayRepository) private readonly feedbackDays: FeedbackDayRepository,
    @Inject(ConversationStatsRepository) private readonly stats: ConversationStatsRepository,
    @Inject(UnansweredRepository) private readonly unanswered: UnansweredRepository,
    @Inject(WebhookRepository) private readonly webhooks: WebhookRepository,
    @Inject(WebhookDeliveryRepository) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(Ports.documents) private readonly documents: DocumentStore,
  ) {}

  async erase(projectId: string): Promise<{ ok: true }> {
    const deleted = [
      await this.webhooks.deleteForProject(projectId),
      await this.deliveries.deleteForProject(projectId),
      await this.feed.deleteForProject(projectId),
      await this.feedback.deleteForProject(projectId),
      await this.feedbackDays.deleteForProject(projectId),
      await this.stats.deleteForProject(projectId),
      await this.unanswered.deleteForProject(projectId),
    ].reduce((a, b) => a + b, 0);
    // A run that found nothing (the retention run's check of a long-deleted project) rewrites no file.
    if (deleted > 0) await this.documents.compact(ANALYTICS_COLLECTIONS);
    return { ok: true };
  }
}
