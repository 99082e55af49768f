import { Inject, Injectable } from '@nestjs/common';
import { type DocumentStore, logger, Ports } from '@palaver/platform';
import { type FeedEntry, readConversationEvent } from '../domain/feed-entry.mapper';
import { dayDelta, type FeedbackSubmission, utcDay } from '../domain/feedback-summary.reducer';
import { FeedRepository } from '../repositories/feed.repository';
import { FeedbackDayRepository } from '../repositories/feedback-day.repository';
import { MessageFeedbackRepository } from '../repositories/message-feedback.repository';

/** The collections an erased conversation's ids were in (compacted after). */
const ANALYTICS_COLLECTIONS = ['analytics_events', 'analytics_feedback'];

/**
 * Applies conversation events (StoredEvents from the stream) to the analytics read models.
 * Every step is idempotent, so a redelivery, or a retry after a crash between steps, leaves the
 * same state as a single delivery. Storage failures throw, and the stream delivers the event again.
 */
@Injectable()
export class AnalyticsProjection {
  constructor(
    @Inject(FeedRepository) private readonly feed: FeedRepository,
    @Inject(MessageFeedbackRepository) private readonly messages: MessageFeedbackRepository,
    @Inject(FeedbackDayRepository) private readonly days: FeedbackDayRepository,
    @Inject(Ports.documents) private readonly documents: DocumentStore,
  ) {}

  async apply(payload: unknown): Promise<void> {
    return this.applyBatch([payload]);
  }

  /**
   * Applies consecutive events in order. The feed entries of events without feedback (nearly all)
   * are written together; an event with feedback is applied on its own, after the entries before it.
   */
  async applyBatch(payloads: unknown[]): Promise<void> {
    let entries: FeedEntry[] = [];
    let erased = false;
    for (const payload of payloads) {
      const read = readConversationEvent(payload);
      if (read.kind === 'ignored') continue;
      if (read.kind === 'erased') {
        await this.feed.appendMany(entries);
        entries = [];
        await this.feed.anonymizeConversation(read.projectId, read.conversationId);
        await this.messages.anonymizeConversation(read.projectId, read.conversationId);
        erased = true;
        continue;
      }
      if (read.kind === 'invalid') {
        // Redelivering a malformed event would fail forever: skip it, loudly.
        logger.warn({ reason: read.reason }, 'analytics: skipped a malformed conversation event');
        continue;
      }
      if (!read.feedback) {
        entries.push(read.entry);
        continue;
      }
      await this.feed.appendMany(entries);
      entries = [];
      await this.applyFeedback(read.feedback);
      await this.feed.append(read.entry);
      // The day drops the event from its pending ids only once the feed entry, the mark that the
      // event was counted, is on disk: a crash cannot keep the one without the other and count twice.
      await this.documents.sync();
      await this.days.settle(read.feedback.projectId, utcDay(read.feedback.occurredAt), read.feedback.eventId);
    }
    await this.feed.appendMany(entries);
    // What the entries held before is still in the embedded store's files until they are rewritten.
    if (erased) await this.documents.compact(ANALYTICS_COLLECTIONS);
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
