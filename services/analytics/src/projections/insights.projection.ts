import { Inject, Injectable } from '@nestjs/common';
import { type ConversationStats, emptyStats, evolveStats, type UnansweredChange } from '../domain/conversation-stats';
import { type ReadDomainEvent, readDomainEvent } from '../domain/domain-event.reader';
import { ConversationStatsRepository } from '../repositories/conversation-stats.repository';
import { UnansweredRepository } from '../repositories/unanswered.repository';

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
    for (const events of byConversation.values()) await this.applyConversation(events);
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
        question: change.question,
        askedAt: change.askedAt,
      },
      change.reason,
    );
  }
}
