import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  ConversationAdminMessages,
  EMBED_TEXTS_MAX,
  type Qna,
  SearchMessages,
  type UnansweredGroup,
  VISITOR_MESSAGE_TEXTS_MAX,
} from '@palaver/contracts';
import { type Clock, Ports, type ServiceClient } from '@palaver/platform';
import { groupQuestions } from '../domain/question-grouping';
import { type UnansweredQuestionDoc, UnansweredRepository } from '../repositories/unanswered.repository';

/** Questions grouped per read at most; the rest are grouped by the next reads. */
const GROUPING_BATCH = 512;
/** Example conversations listed per group. */
const MAX_EXAMPLES = 5;

type Range = { projectId: string; from?: string; to?: string };

/**
 * The unanswered questions, grouped by meaning. Questions are recorded by the projection by id
 * only, without text or vectors: the text is personal (sealed in the event stream, see
 * docs/privacy.md), so each read asks the conversation service for it, and a question of an erased
 * conversation, whose text is gone, drops out. Each read first groups the new ones, embedding them
 * with the search service's embedder, so groups and their ids persist and an answered group stays
 * answered. Reads of one project are run one after the other so two reads never group the same
 * questions twice.
 */
@Injectable()
export class UnansweredService {
  private readonly grouping = new Map<string, Promise<void>>();

  constructor(
    @Inject(UnansweredRepository) private readonly repository: UnansweredRepository,
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async list({ projectId, from, to }: Range): Promise<{ data: UnansweredGroup[] }> {
    await this.groupNew(projectId);
    const open = new Set((await this.repository.openGroups(projectId)).map((g) => g._id));
    const asked = (await this.repository.askedBetween(projectId, from, to)).filter((q) => q.groupId !== null && open.has(q.groupId));
    const texts = await this.textsOf(projectId, asked);
    const byGroup = new Map<string, TextedQuestion[]>();
    for (const doc of asked) {
      const text = texts.get(doc.messageId);
      if (text === undefined || doc.groupId === null) continue;
      const q = { ...doc, groupId: doc.groupId, question: text };
      const questions = byGroup.get(q.groupId);
      if (questions) questions.push(q);
      else byGroup.set(q.groupId, [q]);
    }
    const data = [...byGroup.entries()].map(([id, questions]) => presentGroup(id, questions));
    data.sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt));
    return { data };
  }

  async answer(request: {
    projectId: string;
    actor: Actor;
    groupId: string;
    answer: string;
    question?: string;
  }): Promise<{ group: UnansweredGroup; qna: Qna }> {
    const { projectId, groupId } = request;
    const group = await this.repository.group(projectId, groupId);
    if (!group)
      throw new AppError('NOT_FOUND', `Unanswered question group ${groupId} not found`, { resource: 'unanswered-group', id: groupId });
    if (group.answeredAt !== null) throw answeredConflict(groupId);
    const docs = await this.repository.questionsOf(projectId, groupId);
    const texts = await this.textsOf(projectId, docs);
    const questions = docs.flatMap((doc) => {
      const text = texts.get(doc.messageId);
      return text === undefined ? [] : [{ ...doc, question: text }];
    });
    const presented = presentGroup(groupId, questions);
    const question = request.question ?? presented.question;
    const qna = await this.services.send(SearchMessages.createQna, {
      projectId,
      actor: request.actor,
      body: { question, answer: request.answer },
    });
    if (!(await this.repository.markAnswered(projectId, groupId, qna.id, this.clock.now().toISOString()))) throw answeredConflict(groupId);
    return { group: presented, qna };
  }

  private groupNew(projectId: string): Promise<void> {
    const previous = this.grouping.get(projectId) ?? Promise.resolve();
    const run = previous.then(() => this.groupBatch(projectId));
    const settled = run.catch(() => undefined);
    this.grouping.set(projectId, settled);
    void settled.then(() => {
      if (this.grouping.get(projectId) === settled) this.grouping.delete(projectId);
    });
    return run;
  }

  private async groupBatch(projectId: string): Promise<void> {
    const ungrouped = await this.repository.ungrouped(projectId, GROUPING_BATCH);
    const texts = await this.textsOf(projectId, ungrouped);
    // One without text is of an erased conversation (its rows are dropped when the erasure arrives).
    const fresh = ungrouped.flatMap((doc) => {
      const text = texts.get(doc.messageId);
      return text === undefined ? [] : [{ ...doc, question: text }];
    });
    if (fresh.length === 0) return;
    const vectors: number[][] = [];
    for (let i = 0; i < fresh.length; i += EMBED_TEXTS_MAX) {
      const texts = fresh.slice(i, i + EMBED_TEXTS_MAX).map((q) => q.question.slice(0, 2000));
      vectors.push(...(await this.services.send(SearchMessages.embed, { texts })).vectors);
    }
    const groups = (await this.repository.openGroups(projectId)).map(({ _id, centroid, size }) => ({ id: _id, centroid, size }));
    const { assigned, changed, created } = groupQuestions(
      groups,
      fresh.map((q, i) => ({ questionId: q.messageId, vector: vectors[i] ?? [] })),
      randomUUID,
    );
    const now = this.clock.now().toISOString();
    // Groups first: a question never points at a group that is not stored.
    for (const group of changed) await this.repository.saveGroup(projectId, group, now, created.has(group.id));
    for (const { questionId, groupId } of assigned) await this.repository.assign(projectId, questionId, groupId);
  }

  /** The clear text of these questions, by message id; an erased one is missing. */
  private async textsOf(projectId: string, questions: UnansweredQuestionDoc[]): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    const ids = questions.map((q) => q.messageId);
    for (let i = 0; i < ids.length; i += VISITOR_MESSAGE_TEXTS_MAX) {
      const messageIds = ids.slice(i, i + VISITOR_MESSAGE_TEXTS_MAX);
      const { data } = await this.services.send(ConversationAdminMessages.visitorMessageTexts, { projectId, messageIds });
      for (const m of data) texts.set(m.messageId, m.text);
    }
    return texts;
  }
}

type TextedQuestion = UnansweredQuestionDoc & { question: string };

const answeredConflict = (groupId: string): AppError =>
  new AppError('CONFLICT', 'This group of questions is already answered', {
    resource: 'unanswered-group',
    conflictingField: 'answeredAt',
    id: groupId,
  });

/** A group as listed: its questions newest first; the newest wording names it. */
const presentGroup = (id: string, questions: TextedQuestion[]): UnansweredGroup => {
  const newest = [...questions].sort((a, b) => b.askedAt.localeCompare(a.askedAt));
  return {
    id,
    question: newest[0]?.question ?? '',
    count: newest.length,
    lastAskedAt: newest[0]?.askedAt ?? new Date(0).toISOString(),
    examples: newest.slice(0, MAX_EXAMPLES).map((q) => ({ conversationId: q.conversationId, messageId: q.messageId })),
  };
};
