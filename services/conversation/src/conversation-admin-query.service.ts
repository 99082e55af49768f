import { Inject, Injectable } from '@nestjs/common';
import type { AdminConversation, AdminConversationFilter, ConversationAdminMessages, DislikedAnswer } from '@palaver/contracts';
import type { Filter } from '@palaver/platform';
import type { z } from 'zod';
import { conversationNotFound } from './domain/conversation.errors';
import { type ConversationDoc, type MessageDoc, ReadModel } from './projections/read-model';
import { ReadModelBarrier } from './projections/read-model.barrier';
import { toConversation, toMessage } from './queries/conversation.presenter';

type Req<K extends keyof typeof ConversationAdminMessages> = z.output<(typeof ConversationAdminMessages)[K]['request']>;
type Res<K extends keyof typeof ConversationAdminMessages> = z.input<(typeof ConversationAdminMessages)[K]['response']>;

/** How many disliked messages are grouped at most: the dashboard shows the top few. */
const DISLIKE_SCAN_LIMIT = 2000;

const textOf = (message: Pick<MessageDoc, 'parts'>): string => message.parts.map((part) => part.text).join('');

const filterOf = (projectId: string, f: AdminConversationFilter): Filter => ({
  projectId,
  ...(f.status ? { status: f.status } : {}),
  ...(f.humanHandled !== undefined ? { isHumanHandled: f.humanHandled } : {}),
  ...(f.visitorId ? { visitorId: f.visitorId } : {}),
  ...(f.from || f.to ? { lastInteractionAt: { ...(f.from ? { $gte: f.from } : {}), ...(f.to ? { $lt: f.to } : {}) } } : {}),
});

const toAdminConversation = (doc: ConversationDoc, extra: Parameters<typeof toConversation>[1] = {}): AdminConversation => ({
  ...toConversation(doc, extra),
  visitorId: doc.visitorId,
  pageUrl: doc.pageUrl,
  messageCount: doc.messageCount,
});

/** The dashboard's reads: every conversation of a project, whoever the visitor. */
@Injectable()
export class ConversationAdminQueryService {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(ReadModelBarrier) private readonly barrier: ReadModelBarrier,
  ) {}

  async list({ projectId, query }: Req<'list'>): Promise<Res<'list'>> {
    const filter = filterOf(projectId, query);
    const dir = query.orderDir === 'asc' ? 1 : -1;
    const [docs, total] = await Promise.all([
      this.readModel.conversations.find(filter, { sort: { lastInteractionAt: dir, _id: dir }, skip: query.offset, limit: query.limit }),
      this.readModel.conversations.count(filter),
    ]);
    const lastIds = docs.flatMap((d) => (d.lastMessageId ? [d.lastMessageId] : []));
    const lastMessages = lastIds.length === 0 ? [] : await this.readModel.messages.find({ projectId, _id: { $in: lastIds } });
    const byId = new Map(lastMessages.map((m) => [m._id, m]));
    const data = docs.map((doc) => {
      const last = doc.lastMessageId ? byId.get(doc.lastMessageId) : undefined;
      return toAdminConversation(doc, { lastMessage: last ? toMessage(last, { title: doc.title }) : null });
    });
    return { object: 'list', total, limit: query.limit, offset: query.offset, data };
  }

  /**
   * One page of the export, in creation order (then id) after `after`: a key that writes do not
   * move, unlike the last interaction the list sorts on, so a conversation written to while an
   * export pages through is neither skipped nor repeated.
   */
  async exportPage({ projectId, filter, after, limit }: Req<'exportPage'>): Promise<Res<'exportPage'>> {
    const afterCursor = after
      ? { $or: [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, _id: { $gt: after.id } }] }
      : {};
    const docs = await this.readModel.conversations.find(
      { ...filterOf(projectId, filter), ...afterCursor },
      { sort: { createdAt: 1, _id: 1 }, limit },
    );
    const last = docs.at(-1);
    return {
      data: docs.map((doc) => toAdminConversation(doc)),
      next: docs.length === limit && last ? { createdAt: last.createdAt, id: last._id } : null,
    };
  }

  async get({ projectId, conversationId }: Req<'get'>): Promise<AdminConversation> {
    await this.barrier.conversation(projectId, conversationId);
    const conversation = await this.readModel.conversations.findOne({ _id: conversationId, projectId });
    if (!conversation) throw conversationNotFound(conversationId);
    const messages = await this.readModel.messages.find({ projectId, conversationId }, { sort: { seq: 1 } });
    return toAdminConversation(conversation, { messages: messages.map((m) => toMessage(m, { title: conversation.title })) });
  }

  async dislikedAnswers({ projectId, limit }: Req<'dislikedAnswers'>): Promise<{ data: DislikedAnswer[] }> {
    const disliked = await this.readModel.messages.find(
      { projectId, role: 'assistant', feedback: 'dislike' },
      { sort: { feedbackAt: -1, _id: 1 }, limit: DISLIKE_SCAN_LIMIT },
    );
    // Newest first, so the first message of each group is its latest occurrence.
    const groups = new Map<string, { latest: MessageDoc; dislikes: number }>();
    for (const message of disliked) {
      const key = textOf(message).trim();
      const group = groups.get(key);
      if (group) group.dislikes += 1;
      else groups.set(key, { latest: message, dislikes: 1 });
    }
    const top = [...groups.values()].sort((a, b) => b.dislikes - a.dislikes).slice(0, limit);
    const data = await Promise.all(
      top.map(async ({ latest, dislikes }) => ({
        answer: textOf(latest),
        question: await this.questionBefore(latest),
        dislikes,
        lastDislikedAt: latest.feedbackAt,
        conversationId: latest.conversationId,
        messageId: latest._id,
      })),
    );
    return { data };
  }

  /** The visitor message an answer replied to: the last user message before it. */
  private async questionBefore(answer: MessageDoc): Promise<string | null> {
    const question = await this.readModel.messages.findOne(
      { projectId: answer.projectId, conversationId: answer.conversationId, role: 'user', seq: { $lt: answer.seq } },
      { sort: { seq: -1 } },
    );
    return question ? textOf(question) : null;
  }
}
