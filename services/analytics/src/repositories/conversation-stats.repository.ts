import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, Ports, replaceIfUnchanged } from '@palaver/platform';
import type { ConversationStats } from '../domain/conversation-stats';
import { ANALYTICS_DURABILITY } from './analytics-durability';

type StatsDoc = ConversationStats & { _id: string };

const idOf = (projectId: string, conversationId: string): string => `${projectId}:${conversationId}`;

/** One document per conversation with what the insights summary counts (`analytics_conversations`). */
@Injectable()
export class ConversationStatsRepository {
  private readonly conversations: Collection<StatsDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.conversations = documents.collection<StatsDoc>(
      'analytics_conversations',
      [{ keys: { projectId: 1, startedAt: 1 } }],
      ANALYTICS_DURABILITY,
    );
  }

  async get(projectId: string, conversationId: string): Promise<ConversationStats | null> {
    const doc = await this.conversations.findOne({ _id: idOf(projectId, conversationId) });
    if (!doc) return null;
    const { _id, ...stats } = doc;
    return stats;
  }

  /**
   * Stores `next` if the stored version is still `expectedVersion` (0: none stored yet); false
   * when another writer got there first, and the caller reads again.
   */
  save(next: ConversationStats, expectedVersion: number): Promise<boolean> {
    const doc = { _id: idOf(next.projectId, next.conversationId), ...next };
    return replaceIfUnchanged(this.conversations, doc, expectedVersion === 0 ? null : { version: expectedVersion });
  }

  /** The conversations started in [from, to). */
  async startedBetween(projectId: string, from: string | undefined, to: string | undefined): Promise<ConversationStats[]> {
    const startedAt: Record<string, string> = {};
    if (from) startedAt.$gte = from;
    if (to) startedAt.$lt = to;
    const docs = await this.conversations.find(Object.keys(startedAt).length > 0 ? { projectId, startedAt } : { projectId });
    return docs.map(({ _id, ...stats }) => stats);
  }

  /** Everything of a deleted project; answers how many rows went. */
  deleteForProject(projectId: string): Promise<number> {
    return this.conversations.deleteMany({ projectId });
  }
}
