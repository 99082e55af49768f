import { Inject, Injectable } from '@nestjs/common';
import type { StoredConversationEvent } from '../conversation.stream';
import { AgentFeed } from './agent-feed';
import { ConversationProjection } from './conversation.projection';
import { MessageProjection } from './message.projection';

/** Brings the read models up to an event; the conversation first, its messages take its visitor; then the agent feed. */
@Injectable()
export class ReadModelProjector {
  constructor(
    @Inject(ConversationProjection) private readonly conversations: ConversationProjection,
    @Inject(MessageProjection) private readonly messages: MessageProjection,
    @Inject(AgentFeed) private readonly agentFeed: AgentFeed,
  ) {}

  async apply(event: StoredConversationEvent): Promise<void> {
    const conversation = await this.conversations.apply(event);
    if (!conversation) return;
    await this.messages.apply(event, { visitorId: conversation.visitorId });
    await this.agentFeed.apply(event, conversation);
  }
}
