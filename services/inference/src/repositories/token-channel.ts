import { Inject, Injectable } from '@nestjs/common';
import { type ReplyAddress, type RoutedTokenChunk, replyChannel, type TokenChunk } from '@palaver/contracts';
import { logger, Ports, type PubSub } from '@palaver/platform';

/**
 * Publishes a reply's fragments: on its gateway's channel, marked with the reply's id, or on the
 * reply's own channel when the request named none. Publishing is best effort: a lost fragment
 * must not stop the reply from being generated and stored.
 */
@Injectable()
export class TokenChannel {
  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  async publish(reply: ReplyAddress, chunk: TokenChunk): Promise<void> {
    try {
      if (reply.replyTo) await this.pubsub.publish(reply.replyTo, { replyId: reply.replyId, chunk } satisfies RoutedTokenChunk);
      else await this.pubsub.publish(replyChannel(reply.replyId), chunk);
    } catch (err) {
      logger.warn({ err, replyId: reply.replyId, type: chunk.type }, 'could not publish a reply chunk');
    }
  }
}
