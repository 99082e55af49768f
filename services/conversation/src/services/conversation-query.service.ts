import { Inject, Injectable } from '@nestjs/common';
import type { Conversation, ConversationMessages, Message } from '@palaver/contracts';
import type { Sort } from '@palaver/platform';
import type { z } from 'zod';
import { conversationForbidden, conversationNotFound } from '../domain/conversation.errors';
import { toConversation, toFullConversation, toMessage } from '../presenters/conversation.presenter';
import { liveEventsOf } from '../presenters/live-event.presenter';
import { toChat, toChatSummary } from '../presenters/surface-b.presenter';
import { ReadModelBarrier } from '../projections/read-model.barrier';
import { ConversationRepository } from '../repositories/conversation.repository';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { MessageReadRepository } from '../repositories/message-read.repository';
import type { ConversationDoc } from '../repositories/read-model';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;
type Res<K extends keyof typeof ConversationMessages> = z.input<(typeof ConversationMessages)[K]['response']>;

/**
 * Reads of the conversation read models; every query is scoped to the project and the visitor, and
 * waits for the writes under way in this process that it would see (`ReadModelBarrier`).
 */
@Injectable()
export class ConversationQueryService {
  constructor(
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(MessageReadRepository) private readonly messages: MessageReadRepository,
    @Inject(ConversationRepository) private readonly repository: ConversationRepository,
    @Inject(ReadModelBarrier) private readonly barrier: ReadModelBarrier,
  ) {}

  /** The visitor's live events after a version; the event stream is read only when the conversation moved on. */
  async events(req: Req<'events'>): Promise<Res<'events'>> {
    const conversation = await this.owned(req.projectId, req.visitorId, req.conversationId);
    if (conversation.version <= req.after) return { data: [], cursor: req.after };
    const { events } = await this.repository.load(conversation._id);
    return { data: liveEventsOf(events, req.after), cursor: events.at(-1)?.version ?? req.after };
  }

  async list(req: Req<'list'>): Promise<Res<'list'>> {
    await this.barrier.visitor(req.projectId, req.visitorId);
    const { limit, offset, status, orderBy, orderDir } = req.query;
    const dir = orderDir === 'asc' ? 1 : -1;
    // The id breaks ties so that pages never overlap.
    const sort: Sort = orderBy === 'id' ? { _id: dir } : { [orderBy]: dir, _id: dir };
    const { docs, total } = await this.conversations.visitorPage(req.projectId, req.visitorId, status, { sort, skip: offset, limit });
    const byId = await this.messages.lastOf(req.projectId, docs);
    const data = docs.map((doc) => {
      const last = doc.lastMessageId ? byId.get(doc.lastMessageId) : undefined;
      return toConversation(doc, { lastMessage: last ? toMessage(last, { title: doc.title }) : null });
    });
    return { object: 'list', total, limit, offset, data };
  }

  async get(req: Req<'get'>): Promise<Conversation> {
    const conversation = await this.owned(req.projectId, req.visitorId, req.conversationId);
    const messages = await this.messages.ofConversation(req.projectId, conversation._id);
    return toFullConversation(conversation, messages);
  }

  async listMessages(req: Req<'listMessages'>): Promise<{ object: 'list'; data: Message[] }> {
    const conversation = await this.owned(req.projectId, req.visitorId, req.conversationId);
    const { limit, offset, role, status } = req.query;
    const docs = await this.messages.pageOfConversation(req.projectId, conversation._id, { role, status, offset, limit });
    return { object: 'list', data: docs.map((doc) => toMessage(doc)) };
  }

  async chats(req: Req<'chats'>): Promise<Res<'chats'>> {
    await this.barrier.visitor(req.projectId, req.visitorId);
    const { docs, total } = await this.conversations.visitorPage(
      req.projectId,
      req.visitorId,
      req.filter === 'all' ? undefined : req.filter,
      {
        sort: { lastInteractionAt: -1, _id: -1 },
        skip: (req.page - 1) * req.pageSize,
        limit: req.pageSize,
      },
    );
    const byId = await this.messages.lastOf(req.projectId, docs);
    return {
      data: docs.map((doc) => toChatSummary(doc, doc.lastMessageId ? byId.get(doc.lastMessageId) : undefined)),
      page: req.page,
      pageSize: req.pageSize,
      totalPages: Math.ceil(total / req.pageSize),
    };
  }

  /** Surface B hides other customers' chats entirely (404), where v2 answers 403. */
  async chat(req: Req<'chat'>): Promise<Res<'chat'>> {
    await this.barrier.conversation(req.projectId, req.chatId);
    const conversation = await this.conversations.get(req.projectId, req.chatId);
    if (!conversation || conversation.visitorId !== req.visitorId) throw conversationNotFound(req.chatId);
    const messages = await this.messages.ofConversation(req.projectId, conversation._id);
    return toChat(conversation, messages);
  }

  /** Another project's conversation does not exist for the asker; another visitor's is forbidden. */
  private async owned(projectId: string, visitorId: string, conversationId: string): Promise<ConversationDoc> {
    await this.barrier.conversation(projectId, conversationId);
    const conversation = await this.conversations.get(projectId, conversationId);
    if (!conversation) throw conversationNotFound(conversationId);
    if (conversation.visitorId !== visitorId) throw conversationForbidden();
    return conversation;
  }
}
