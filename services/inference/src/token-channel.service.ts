import { Inject, Injectable } from '@nestjs/common';
import { replyChannel, type TokenChunk } from '@palaver/contracts';
import { logger, Ports, type PubSub } from '@palaver/platform';

/**
 * Publishes a reply's fragments on its pub/sub channel. Publishing is best effort: a lost
 * fragment must not stop the reply from being generated and stored.
 */
@Injectable()
export class TokenChannel {
  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  async publish(replyId: string, chunk: TokenChunk): Promise<void> {
    try {
      await this.pubsub.publish(replyChannel(replyId), chunk);
    } catch (err) {
      logger.warn({ err, replyId, type: chunk.type }, 'could not publish a reply chunk');
    }
  }
}
