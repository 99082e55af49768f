import { Inject, Injectable } from '@nestjs/common';
import type { AdminConversation, ConversationAdminMessages, DislikedAnswer } from '@palaver/contracts';
import type { z } from 'zod';
import { conversationNotFound } from '../domain/conversation.errors';
import { toConversation, toMessage } from '../presenters/conversation.presenter';
import { ReadModelBarrier } from '../projections/read-model.barrier';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { MessageReadRepository } from '../repositories/message-read.repository';
import type { ConversationDoc, MessageDoc } from '../repositories/read-model';

type Req<K extends keyof typeof ConversationAdminMessages> = z.output<(typeof ConversationAdminMessages)[K]['request']>;
type Res<K extends keyof typeof ConversationAdminMessages> = z.input<(typeof ConversationAdminMessages)[K]['response']>;

/** How many disliked messages are grouped at most: the dashboard shows the top few. */
const DISLIKE_SCAN_LIMIT = 2000;

const textOf = (message: Pick<MessageDoc, 'parts'>): string => message.parts.map((part) => part.text).join('');

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
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(MessageReadRepository) private readonly messages: MessageReadRepository,
    @Inject(ReadModelBarrier) private readonly barrier: ReadModelBarrier,
  ) {}

  async list({ projectId, query }: Req<'list'>): Promise<Res<'list'>> {
    const dir = query.orderDir === 'asc' ? 1 : -1;
    const { docs, total } = await this.conversations.adminPage(projectId, query, dir, query.offset, query.limit);
    const byId = await this.messages.lastOf(projectId, docs);
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
    const docs = await this.conversations.exportPage(projectId, filter, after, limit);
    const last = docs.at(-1);
    return {
      data: docs.map((doc) => toAdminConversation(doc)),
      next: docs.length === limit && last ? { createdAt: last.createdAt, id: last._id } : null,
    };
  }

  async get({ projectId, conversationId }: Req<'get'>): Promise<AdminConversation> {
    await this.barrier.conversation(projectId, conversationId);
    const conversation = await this.conversations.get(projectId, conversationId);
    if (!conversation) throw conversationNotFound(conversationId);
    const messages = await this.messages.ofConversation(projectId, conversationId);
    return toAdminConversation(conversation, { messages: messages.map((m) => toMessage(m, { title: conversation.title })) });
  }

  async dislikedAnswers({ projectId, limit }: Req<'dislikedAnswers'>): Promise<{ data: DislikedAnswer[] }> {
    const disliked = await this.messages.disliked(projectId, DISLIKE_SCAN_LIMIT);
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

  /** The read model holds messages in clear and drops an erased conversation's, so erased ones are simply not found. */
  async visitorMessageTexts({ projectId, messageIds }: Req<'visitorMessageTexts'>): Promise<Res<'visitorMessageTexts'>> {
    const found = await this.messages.visitorMessages(projectId, [...new Set(messageIds)]);
    const data = found
      .map((m) => ({ messageId: m._id, conversationId: m.conversationId, text: textOf(m) }))
      .filter((m) => m.text.length > 0);
    return { data };
  }

  /** The visitor message an answer replied to: the last user message before it. */
  private async questionBefore(answer: MessageDoc): Promise<string | null> {
    const question = await this.messages.questionBefore(answer);
    return question ? textOf(question) : null;
  }
}
