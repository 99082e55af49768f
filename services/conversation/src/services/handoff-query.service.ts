import { Inject, Injectable } from '@nestjs/common';
import { type AgentConversation, type AgentEvent, type ConversationMessages, HELD_LIMIT, type HeldConversations } from '@palaver/contracts';
import type { z } from 'zod';
import { conversationNotFound } from '../domain/conversation.errors';
import { toAgentConversation } from '../presenters/agent.presenter';
import { toMessage } from '../presenters/conversation.presenter';
import { AgentFeedRepository } from '../repositories/agent-feed.repository';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { MessageReadRepository } from '../repositories/message-read.repository';
import type { ConversationDoc } from '../repositories/read-model';
import { AgentNoteService } from './agent-note.service';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;

/** The human side's reads: the queue, the conversations an agent holds and the agents' feed. */
@Injectable()
export class HandoffQueryService {
  constructor(
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(MessageReadRepository) private readonly messages: MessageReadRepository,
    @Inject(AgentFeedRepository) private readonly feed: AgentFeedRepository,
    @Inject(AgentNoteService) private readonly notes: AgentNoteService,
  ) {}

  async queue(req: Req<'queue'>): Promise<{ data: AgentConversation[] }> {
    const waiting = await this.conversations.waiting(req.projectId, req.limit);
    return { data: await Promise.all(waiting.map((doc) => this.present(doc))) };
  }

  async agentConversation(req: { projectId: string; conversationId: string }): Promise<AgentConversation> {
    const doc = await this.conversations.get(req.projectId, req.conversationId);
    if (!doc) throw conversationNotFound(req.conversationId);
    return this.present(doc);
  }

  /**
   * The feed's position is read first: a read model is written before its feed entry takes a
   * sequence, so whatever has a sequence up to it is in the conversations read after it, and
   * whatever comes later is in the feed after it.
   */
  async heldConversations(req: Req<'heldConversations'>): Promise<HeldConversations> {
    const feedCursor = String(await this.feed.position(req.projectId));
    const held = await this.conversations.heldBy(req.projectId, req.humanAgentId, HELD_LIMIT);
    return { data: await Promise.all(held.map((doc) => this.present(doc))), feedCursor };
  }

  async agentEvents(req: Req<'agentEvents'>): Promise<{ data: AgentEvent[] }> {
    const entries = await this.feed.after(req.projectId, req.after, req.limit);
    // A page often holds several entries of one conversation: present each conversation once.
    const conversations = new Map<string, Promise<AgentConversation>>();
    const conversationOf = (conversationId: string): Promise<AgentConversation> => {
      let presented = conversations.get(conversationId);
      if (!presented) {
        presented = this.agentConversation({ projectId: req.projectId, conversationId });
        conversations.set(conversationId, presented);
      }
      return presented;
    };
    const data = await Promise.all(
      entries.map(async (entry): Promise<AgentEvent> => {
        const message = entry.messageId ? await this.messages.get(req.projectId, entry.messageId) : null;
        const note = entry.noteId ? await this.notes.get(req.projectId, entry.conversationId, entry.noteId) : undefined;
        return {
          id: String(entry.seq),
          type: entry.type,
          occurredAt: entry.occurredAt,
          conversationId: entry.conversationId,
          humanAgentId: entry.humanAgentId,
          conversation: await conversationOf(entry.conversationId),
          message: message ? toMessage(message) : null,
          ...(note === undefined ? {} : { note }),
        };
      }),
    );
    return { data };
  }

  private async present(doc: ConversationDoc): Promise<AgentConversation> {
    const messages = await this.messages.ofConversation(doc.projectId, doc._id);
    return toAgentConversation(doc, messages);
  }
}
