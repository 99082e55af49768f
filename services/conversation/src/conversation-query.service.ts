import { Inject, Injectable } from '@nestjs/common';
import type { Conversation, ConversationMessages, Message } from '@palaver/contracts';
import type { Filter, Sort } from '@palaver/platform';
import type { z } from 'zod';
import { ConversationRepository } from './conversation.repository';
import { conversationForbidden, conversationNotFound } from './domain/conversation.errors';
import { type ConversationDoc, ReadModel } from './projections/read-model';
import { ReadModelBarrier } from './projections/read-model.barrier';
import { toConversation, toFullConversation, toMessage } from './queries/conversation.presenter';
import { liveEventsOf } from './queries/live-events';
import { toChat, toChatSummary } from './queries/surface-b.presenter';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;
type Res<K extends keyof typeof ConversationMessages> = z.input<(typeof ConversationMessages)[K]['response']>;

/**
 * Reads of the conversation read models; every query is scoped to the project and the visitor, and
 * waits for the writes under way in this process that it would see (`ReadModelBarrier`).
 */
@Injectable()
export class ConversationQueryService {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
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
    const filter: Filter = { projectId: req.projectId, visitorId: req.visitorId, ...(status ? { status } : {}) };
    const dir = orderDir === 'asc' ? 1 : -1;
    // The id breaks ties so that pages never overlap.
    const sort: Sort = orderBy === 'id' ? { _id: dir } : { [orderBy]: dir, _id: dir };
    const [docs, total] = await Promise.all([
      this.readModel.conversations.find(filter, { sort, skip: offset, limit }),
      this.readModel.conversations.count(filter),
    ]);
    const lastIds = docs.flatMap((d) => (d.lastMessageId ? [d.lastMessageId] : []));
    const lastMessages =
      lastIds.length === 0 ? [] : await this.readModel.messages.find({ projectId: req.projectId, _id: { $in: lastIds } });
    const byId = new Map(lastMessages.map((m) => [m._id, m]));
    const data = docs.map((doc) => {
      const last = doc.lastMessageId ? byId.get(doc.lastMessageId) : undefined;
      return toConversation(doc, { lastMessage: last ? toMessage(last, { title: doc.title }) : null });
    });
    return { object: 'list', total, limit, offset, data };
  }

  async get(req: Req<'get'>): Promise<Conversation> {
    const conversation = await this.owned(req.projectId, req.visitorId, req.conversationId);
    const messages = await this.readModel.messages.find(
      { projectId: req.projectId, conversationId: conversation._id },
      { sort: { seq: 1 } },
    );
    return toFullConversation(conversation, messages);
  }

  async listMessages(req: Req<'listMessages'>): Promise<{ object: 'list'; data: Message[] }> {
    const conversation = await this.owned(req.projectId, req.visitorId, req.conversationId);
    const { limit, offset, role, status } = req.query;
    const filter: Filter = {
      projectId: req.projectId,
      conversationId: conversation._id,
      ...(role ? { role } : {}),
      ...(status ? { status } : {}),
    };
    const docs = await this.readModel.messages.find(filter, {
      sort: { seq: 1 },
      skip: offset,
      ...(limit === undefined ? {} : { limit }),
    });
    return { object: 'list', data: docs.map((doc) => toMessage(doc)) };
  }

  async chats(req: Req<'chats'>): Promise<Res<'chats'>> {
    await this.barrier.visitor(req.projectId, req.visitorId);
    const filter: Filter = {
      projectId: req.projectId,
      visitorId: req.visitorId,
      ...(req.filter === 'all' ? {} : { status: req.filter }),
    };
    const [docs, total] = await Promise.all([
      this.readModel.conversations.find(filter, {
        sort: { lastInteractionAt: -1, _id: -1 },
        skip: (req.page - 1) * req.pageSize,
        limit: req.pageSize,
      }),
      this.readModel.conversations.count(filter),
    ]);
    const lastIds = docs.flatMap((d) => (d.lastMessageId ? [d.lastMessageId] : []));
    const lastMessages =
      lastIds.length === 0 ? [] : await this.readModel.messages.find({ projectId: req.projectId, _id: { $in: lastIds } });
    const byId = new Map(lastMessages.map((m) => [m._id, m]));
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
    const conversation = await this.readModel.conversations.findOne({ _id: req.chatId, projectId: req.projectId });
    if (!conversation || conversation.visitorId !== req.visitorId) throw conversationNotFound(req.chatId);
    const messages = await this.readModel.messages.find(
      { projectId: req.projectId, conversationId: conversation._id },
      { sort: { seq: 1 } },
    );
    return toChat(conversation, messages);
  }

  /** Another project's conversation does not exist for the asker; another visitor's is forbidden. */
  private async owned(projectId: string, visitorId: string, conversationId: string): Promise<ConversationDoc> {
    await this.barrier.conversation(projectId, conversationId);
    const conversation = await this.readModel.conversations.findOne({ _id: conversationId, projectId });
    if (!conversation) throw conversationNotFound(conversationId);
    if (conversation.visitorId !== visitorId) throw conversationForbidden();
    return conversation;
  }
}
