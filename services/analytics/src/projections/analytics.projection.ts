import { Inject, Injectable } from '@nestjs/common';
import { logger } from '@palaver/platform';
import { readConversationEvent } from '../domain/feed-entry.mapper';
import { dayDelta, type FeedbackSubmission, utcDay } from '../domain/feedback-summary.reducer';
import { FeedRepository } from '../repositories/feed.repository';
import { FeedbackDayRepository } from '../repositories/feedback-day.repository';
import { MessageFeedbackRepository } from '../repositories/message-feedback.repository';

/**
 * Applies one conversation event (a StoredEvent from the stream) to the analytics read models.
 * Every step is idempotent, so a redelivery, or a retry after a crash between steps, leaves the
 * same state as a single delivery. Storage failures throw, and the stream delivers the event again.
 */
@Injectable()
export class AnalyticsProjection {
  constructor(
    @Inject(FeedRepository) private readonly feed: FeedRepository,
    @Inject(MessageFeedbackRepository) private readonly messages: MessageFeedbackRepository,
    @Inject(FeedbackDayRepository) private readonly days: FeedbackDayRepository,
  ) {}

  async apply(payload: unknown): Promise<void> {
    const read = readConversationEvent(payload);
    if (read.kind === 'ignored') return;
    if (read.kind === 'invalid') {
      // Redelivering a malformed event would fail forever: skip it, loudly.
      logger.warn({ reason: read.reason }, 'analytics: skipped a malformed conversation event');
      return;
    }
    if (read.feedback) await this.applyFeedback(read.feedback);
    await this.feed.append(read.entry);
    if (read.feedback) await this.days.settle(read.feedback.projectId, utcDay(read.feedback.occurredAt), read.feedback.eventId);
  }

  /**
   * Runs before the feed entry is written, so an event in the feed is also in the summary. The
   * entry then doubles as the "counted" mark: once it exists, a redelivery leaves the days alone.
   */
  private async applyFeedback(submission: FeedbackSubmission): Promise<void> {
    await this.messages.apply(submission);
    if (await this.feed.has(submission.projectId, submission.eventId)) return;
    await this.days.add(submission.projectId, utcDay(submission.occurredAt), submission.eventId, dayDelta(submission));
  }
}
