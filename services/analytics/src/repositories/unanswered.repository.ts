import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, insertUnlessPresent, Ports } from '@palaver/platform';
import type { UnansweredReason } from '../domain/conversation-stats';
import type { GroupCentroid } from '../domain/question-grouping';
import { ANALYTICS_DURABILITY } from './analytics-durability';

export interface UnansweredQuestionDoc {
  /** `<projectId>:<messageId>` of the visitor's message. */
  _id: string;
  projectId: string;
  conversationId: string;
  messageId: string;
  /** No text: it is personal, and read from the conversation service when listed (UnansweredService). */
  askedAt: string;
  reasons: UnansweredReason[];
  /** Null until grouped (UnansweredService groups on read). */
  groupId: string | null;
}

export interface UnansweredGroupDoc extends GroupCentroid {
  _id: string;
  projectId: string;
  createdAt: string;
  answeredAt: string | null;
  qnaId: string | null;
}

/** Unanswered visitor questions and their groups (`analytics_unanswered`, `analytics_unanswered_groups`). */
@Injectable()
export class UnansweredRepository {
  private readonly questions: Collection<UnansweredQuestionDoc>;
  private readonly groups: Collection<UnansweredGroupDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.questions = documents.collection<UnansweredQuestionDoc>(
      'analytics_unanswered',
      [{ keys: { projectId: 1, groupId: 1 } }, { keys: { projectId: 1, askedAt: 1 } }],
      ANALYTICS_DURABILITY,
    );
    this.groups = documents.collection<UnansweredGroupDoc>('analytics_unanswered_groups', [{ keys: { projectId: 1, answeredAt: 1 } }], {});
  }

  /** Idempotent: a question already recorded gains the reason. */
  async add(q: Omit<UnansweredQuestionDoc, '_id' | 'reasons' | 'groupId'>, reason: UnansweredReason): Promise<void> {
    const _id = `${q.projectId}:${q.messageId}`;
    if (!(await insertUnlessPresent(this.questions, { _id, ...q, reasons: [reason], groupId: null }))) {
      await this.questions.updateOne({ _id }, { $addToSet: { reasons: reason } });
    }
  }

  /** Drops the reason; a question left with none is no longer unanswered. */
  async withdraw(projectId: string, messageId: string, reason: UnansweredReason): Promise<void> {
    const _id = `${projectId}:${messageId}`;
    await this.questions.updateOne({ _id }, { $pull: { reasons: reason } });
    await this.questions.deleteOne({ _id, reasons: { $size: 0 } });
  }

  async ungrouped(projectId: string, limit: number): Promise<UnansweredQuestionDoc[]> {
    return this.questions.find({ projectId, groupId: null }, { sort: { askedAt: 1 }, limit });
  }

  async assign(projectId: string, messageId: string, groupId: string): Promise<void> {
    await this.questions.updateOne({ _id: `${projectId}:${messageId}`, groupId: null }, { $set: { groupId } });
  }

  async askedBetween(projectId: string, from: string | undefined, to: string | undefined): Promise<UnansweredQuestionDoc[]> {
    const askedAt: Record<string, string> = {};
    if (from) askedAt.$gte = from;
    if (to) askedAt.$lt = to;
    const filter = Object.keys(askedAt).length > 0 ? { projectId, askedAt } : { projectId };
    return this.questions.find({ ...filter, groupId: { $ne: null } });
  }

  async openGroups(projectId: string): Promise<UnansweredGroupDoc[]> {
    return this.groups.find({ projectId, answeredAt: null });
  }

  async group(projectId: string, groupId: string): Promise<UnansweredGroupDoc | null> {
    return this.groups.findOne({ _id: groupId, projectId });
  }

  async saveGroup(projectId: string, group: GroupCentroid, createdAt: string, isNew: boolean): Promise<void> {
    if (isNew) {
      await this.groups.insertOne({ _id: group.id, ...group, projectId, createdAt, answeredAt: null, qnaId: null });
      return;
    }
    await this.groups.updateOne({ _id: group.id, projectId }, { $set: { centroid: group.centroid, size: group.size } });
  }

  /** False when the group was answered meanwhile. */
  async markAnswered(projectId: string, groupId: string, qnaId: string, at: string): Promise<boolean> {
    const { matched } = await this.groups.updateOne({ _id: groupId, projectId, answeredAt: null }, { $set: { answeredAt: at, qnaId } });
    return matched > 0;
  }

  /**
   * Forgets an erased conversation's questions, and the open groups left with none (their
   * centroid came from its text). Answered groups stay: they name the Q&A entry made of them.
   */
  async eraseConversation(projectId: string, conversationId: string): Promise<void> {
    const gone = await this.questions.find({ projectId, conversationId });
    if (gone.length === 0) return;
    await this.questions.deleteMany({ projectId, conversationId });
    const groupIds = new Set(gone.flatMap((q) => (q.groupId === null ? [] : [q.groupId])));
    for (const groupId of groupIds) {
      if ((await this.questions.count({ projectId, groupId })) > 0) continue;
      await this.groups.deleteOne({ _id: groupId, projectId, answeredAt: null });
    }
  }

  async questionsOf(projectId: string, groupId: string): Promise<UnansweredQuestionDoc[]> {
    return this.questions.find({ projectId, groupId }, { sort: { askedAt: -1 } });
  }

  /** Everything of a deleted project; answers how many rows went. */
  async deleteForProject(projectId: string): Promise<number> {
    return (await Promise.all([this.questions.deleteMany({ projectId }), this.groups.deleteMany({ projectId })])).reduce(
      (a, b) => a + b,
      0,
    );
  }
}
