import { Inject, Injectable } from '@nestjs/common';
import { type ConversationVisitorContext, type InboxMessages, PREVIOUS_CONVERSATIONS_LIMIT } from '@palaver/contracts';
import type { z } from 'zod';
import { conversationNotFound } from '../domain/conversation.errors';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import { ReadModelBarrier } from '../projections/read-model.barrier';
import { ConversationRepository } from '../repositories/conversation.repository';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';

type Req<K extends keyof typeof InboxMessages> = z.output<(typeof InboxMessages)[K]['request']>;

/** The page the visitor was last on: the latest message's page context, else the page the conversation started on. */
const pageOf = (events: readonly StoredConversationEvent[], startUrl: string | null): ConversationVisitorContext['page'] => {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'UserMessagePosted' && event.data.pageContext) {
      const { url, title } = event.data.pageContext;
      if (url !== undefined || title !== undefined) return { url: url ?? null, title: title ?? null };
    }
  }
  return { url: startUrl, title: null };
};

/** The conversation's side of the inbox's visitor panel: personal fields read opened from its events. */
@Injectable()
export class VisitorContextService {
  constructor(
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(ConversationRepository) private readonly repository: ConversationRepository,
    @Inject(ReadModelBarrier) private readonly barrier: ReadModelBarrier,
  ) {}

  async of(req: Req<'visitorContext'>): Promise<ConversationVisitorContext> {
    await this.barrier.conversation(req.projectId, req.conversationId);
    const doc = await this.conversations.get(req.projectId, req.conversationId);
    if (!doc) throw conversationNotFound(req.conversationId);
    const { events } = await this.repository.load(doc._id);
    const started = events[0]?.type === 'ConversationStarted' ? events[0] : undefined;
    const others = await this.conversations.visitorPage(req.projectId, doc.visitorId, undefined, {
      sort: { createdAt: -1, _id: -1 },
      skip: 0,
      limit: PREVIOUS_CONVERSATIONS_LIMIT + 1,
    });
    return {
      visitorId: doc.visitorId,
      contact: doc.contact ?? null,
      page: pageOf(events, doc.pageUrl),
      userAgent: started?.data.userAgent ?? null,
      previousConversations: others.docs
        .filter((other) => other._id !== doc._id)
        .slice(0, PREVIOUS_CONVERSATIONS_LIMIT)
        .map((other) => ({
          id: other._id,
          title: other.title,
          status: other.status,
          createdAt: other.createdAt,
          lastInteractionAt: other.lastInteractionAt,
        })),
    };
  }
}
