import { Inject, Injectable } from '@nestjs/common';
import { type DocumentStore, Ports } from '@palaver/platform';
import { type ConversationStats, emptyStats, evolveStats, type UnansweredChange } from '../domain/conversation-stats';
import { type ReadDomainEvent, readDomainEvent } from '../domain/domain-event.reader';
import { ConversationStatsRepository } from '../repositories/conversation-stats.repository';
import { UnansweredRepository } from '../repositories/unanswered.repository';

/** The collections an erased conversation's questions were in (compacted after). */
const INSIGHTS_COLLECTIONS = ['analytics_conversations', 'analytics_unanswered', 'analytics_unanswered_groups'];

/**
 * Applies conversation events to the insights read models: per-conversation stats (the summary)
 * and unanswered questions. Events of one conversation in a batch are folded together and written
 * once. Idempotent: events at or below the stored version are skipped, and the unanswered
 * questions are written (idempotently) before the version that covers them.
 */
@Injectable()
export class InsightsProjection {
  constructor(
    @Inject(ConversationStatsRepository) private readonly stats: ConversationStatsRepository,
    @Inject(UnansweredRepository) private readonly unanswered: UnansweredRepository,
    @Inject(Ports.documents) private readonly documents: DocumentStore,
  ) {}

  async applyBatch(payloads: unknown[]): Promise<void> {
    const byConversation = new Map<string, ReadDomainEvent[]>();
    for (const payload of payloads) {
      const read = readDomainEvent(payload);
      if (!read) continue;
      const key = `${read.projectId}:${read.conversationId}`;
      const events = byConversation.get(key);
      if (events) events.push(read);
      else byConversation.set(key, [read]);
    }
    let erased = false;
    for (const events of byConversation.values()) {
      await this.applyConversation(events);
      const first = events[0] as ReadDomainEvent;
      if (events.some((read) => read.event.type === 'ConversationErased')) {
        // After the stats: a redelivered event before the erasure cannot bring a question back.
        await this.unanswered.eraseConversation(first.projectId, first.conversationId);
        erased = true;
      }
    }
    // What the deleted documents held is still in the embedded store's files until they are rewritten.
    if (erased) await this.documents.compact(INSIGHTS_COLLECTIONS);
  }

  private async applyConversation(events: ReadDomainEvent[]): Promise<void> {
    const first = events[0] as ReadDomainEvent;
    for (;;) {
      const stored = await this.stats.get(first.projectId, first.conversationId);
      let stats: ConversationStats = stored ?? emptyStats(first.projectId, first.conversationId, first.occurredAt);
      const changes: UnansweredChange[] = [];
      for (const read of events) {
        if (read.version <= stats.version) continue;
        const evolved = evolveStats(stats, read.event, read.occurredAt);
        stats = { ...evolved.stats, version: read.version };
        changes.push(...evolved.changes);
      }
      if (stats.version === (stored?.version ?? 0)) return;
      for (const change of changes) await this.applyChange(stats, change);
      if (await this.stats.save(stats, stored?.version ?? 0)) return;
    }
  }

  private async applyChange(stats: ConversationStats, change: UnansweredChange): Promise<void> {
    if (change.kind === 'withdraw') return this.unanswered.withdraw(stats.projectId, change.questionId, change.reason);
    await this.unanswered.add(
      {
        projectId: stats.projectId,
        conversationId: stats.conversationId,
        messageId: change.questionId,
        askedAt: change.askedAt,
      },
      change.reason,
    );
  }
}
