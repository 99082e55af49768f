import { Inject, Injectable } from '@nestjs/common';
import type { MessageRole, MessageStatus } from '@palaver/contracts';
import type { Filter } from '@palaver/platform';
import { type ConversationDoc, type MessageDoc, ReadModel } from './read-model';

/** The `messages` read model: every query of it. */
@Injectable()
export class MessageReadRepository {
  constructor(@Inject(ReadModel) private readonly readModel: ReadModel) {}

  get(projectId: string, messageId: string): Promise<MessageDoc | null> {
    return this.readModel.messages.findOne({ _id: messageId, projectId });
  }

  /** The conversation's messages in order. */
  ofConversation(projectId: string, conversationId: string): Promise<MessageDoc[]> {
    return this.readModel.messages.find({ projectId, conversationId }, { sort: { seq: 1 } });
  }

  /** A page of the conversation's messages in order, optionally of one role and status. */
  pageOfConversation(
    projectId: string,
    conversationId: string,
    query: { role?: MessageRole | undefined; status?: MessageStatus | undefined; offset: number; limit?: number | undefined },
  ): Promise<MessageDoc[]> {
    const { role, status, offset, limit } = query;
    const filter: Filter = { projectId, conversationId, ...(role ? { role } : {}), ...(status ? { status } : {}) };
    return this.readModel.messages.find(filter, { sort: { seq: 1 }, skip: offset, ...(limit === undefined ? {} : { limit }) });
  }

  /** The last message of each of these conversations, by message id. */
  async lastOf(projectId: string, conversations: ConversationDoc[]): Promise<Map<string, MessageDoc>> {
    const ids = conversations.flatMap((d) => (d.lastMessageId ? [d.lastMessageId] : []));
    const messages = ids.length === 0 ? [] : await this.readModel.messages.find({ projectId, _id: { $in: ids } });
    return new Map(messages.map((m) => [m._id, m]));
  }

  /** These messages of the project's visitors (other roles left out). */
  visitorMessages(projectId: string, messageIds: string[]): Promise<MessageDoc[]> {
    if (messageIds.length === 0) return Promise.resolve([]);
    return this.readModel.messages.find({ projectId, role: 'user', _id: { $in: messageIds } });
  }

  /** The project's disliked answers, most recently disliked first. */
  disliked(projectId: string, limit: number): Promise<MessageDoc[]> {
    return this.readModel.messages.find({ projectId, role: 'assistant', feedback: 'dislike' }, { sort: { feedbackAt: -1, _id: 1 }, limit });
  }

  /** The visitor message an answer replied to: the last user message before it. */
  questionBefore(answer: MessageDoc): Promise<MessageDoc | null> {
    return this.readModel.messages.findOne(
      { projectId: answer.projectId, conversationId: answer.conversationId, role: 'user', seq: { $lt: answer.seq } },
      { sort: { seq: -1 } },
    );
  }

  /** Replies of every project still streaming, last written before `cutoff`. */
  streamingSince(cutoff: string): Promise<MessageDoc[]> {
    return this.readModel.messages.find({ status: 'streaming', updatedAt: { $lt: cutoff } });
  }
}
