import { Inject, Injectable } from '@nestjs/common';
import type { StoredConversationEvent } from '../conversation.stream';
import { ConversationProjection } from './conversation.projection';
import { MessageProjection } from './message.projection';

/** Brings both read models up to an event; the conversation first, its messages take its visitor. */
@Injectable()
export class ReadModelProjector {
  constructor(
    @Inject(ConversationProjection) private readonly conversations: ConversationProjection,
    @Inject(MessageProjection) private readonly messages: MessageProjection,
  ) {}

  async apply(event: StoredConversationEvent): Promise<void> {
    const conversation = await this.conversations.apply(event);
    if (conversation) await this.messages.apply(event, { visitorId: conversation.visitorId });
  }
}
