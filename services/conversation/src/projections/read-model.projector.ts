import { Inject, Injectable } from '@nestjs/common';
import type { StoredConversationEvent } from '../domain/conversation.stream';
import { AgentFeedRepository } from '../repositories/agent-feed.repository';
import type { ConversationDoc } from '../repositories/read-model';
import { ConversationProjection } from './conversation.projection';
import { type MessageOwner, MessageProjection, messageIdOf } from './message.projection';
import { ReadModelChanges } from './read-model.changes';

/**
 * Brings the read models up to an event: the conversation and its messages, then announces the
 * visitor's change to the gateways' caches, then the agent feed.
 */
@Injectable()
export class ReadModelProjector {
  constructor(
    @Inject(ConversationProjection) private readonly conversations: ConversationProjection,
    @Inject(MessageProjection) private readonly messages: MessageProjection,
    @Inject(AgentFeedRepository) private readonly agentFeed: AgentFeedRepository,
    @Inject(ReadModelChanges) private readonly changes: ReadModelChanges,
  ) {}

  /**
   * Brings the read models of one conversation up to the end of `events` (its whole stream, in
   * order): only the events after the version its document already shows are applied.
   */
  async catchUp(events: readonly StoredConversationEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    const current = await this.conversations.current(first);
    const projected = current?.version ?? 0;
    // Versions increase along the stream: the pending ones are a tail, found from the end.
    let from = events.length;
    while (from > 0 && events[from - 1]!.version > projected) from--;
    const pending = events.slice(from);
    // The messages take their visitor from the start of the stream, so they are written beside
    // the conversation (in one write; the messages side by side, each message's events in order)
    // and their writes share an fsync; then the agent feed, with the conversation as of each event.
    const owner = first.type === 'ConversationStarted' ? { visitorId: first.data.visitorId } : null;
    const [after] = await Promise.all([this.conversations.applyAll(pending, current), owner ? this.applyMessages(pending, owner) : null]);
    const final = after.at(-1);
    if (!final) return;
    if (pending.some((event) => event.type === 'ConversationErased')) return this.purge(final);
    if (!owner) await this.applyMessages(pending, { visitorId: final.visitorId });
    await this.changes.announce({ projectId: final.projectId, visitorId: final.visitorId });
    for (const [i, event] of pending.entries()) {
      const conversation = after[i];
      if (conversation) await this.agentFeed.apply(event, conversation);
    }
  }

  /**
   * An erased conversation leaves no read model: its document, its messages and its agent feed
   * entries are deleted (projecting its stream again ends here again), and the gateways drop the
   * visitor's cached reads.
   */
  private async purge(conversation: ConversationDoc): Promise<void> {
    await this.messages.deleteOfConversation(conversation.projectId, conversation._id);
    await this.agentFeed.deleteOfConversation(conversation.projectId, conversation._id);
    await this.conversations.delete(conversation.projectId, conversation._id);
    await this.changes.announce({ projectId: conversation.projectId, visitorId: conversation.visitorId });
  }

  private async applyMessages(events: readonly StoredConversationEvent[], owner: MessageOwner): Promise<void> {
    const byMessage = new Map<string, StoredConversationEvent[]>();
    for (const event of events) {
      const messageId = messageIdOf(event);
      if (messageId !== null) byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), event]);
    }
    await Promise.all(
      [...byMessage.values()].map(async (messageEvents) => {
        for (const event of messageEvents) await this.messages.apply(event, owner);
      }),
    );
  }

  async apply(event: StoredConversationEvent): Promise<void> {
    const conversation = await this.conversations.apply(event);
    if (!conversation) return;
    if (event.type === 'ConversationErased') return this.purge(conversation);
    await this.messages.apply(event, { visitorId: conversation.visitorId });
    await this.changes.announce({ projectId: conversation.projectId, visitorId: conversation.visitorId });
    await this.agentFeed.apply(event, conversation);
  }
}
