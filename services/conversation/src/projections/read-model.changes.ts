import { Inject, Injectable } from '@nestjs/common';
import { CONVERSATION_CHANGES_CHANNEL, type ConversationChange } from '@palaver/contracts';
import { Ports, type PubSub } from '@palaver/platform';

/**
 * Announces, once a visitor's read models are written, that the gateways' cached reads of that
 * visitor are stale. Awaited by the projection, so a command answers only after its announcement
 * left; a failed announcement fails the projection, which the outbox relay then redoes.
 */
@Injectable()
export class ReadModelChanges {
  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  announce(change: ConversationChange): Promise<void> {
    return this.pubsub.publish(CONVERSATION_CHANGES_CHANNEL, change);
  }
}
