import { Inject, Injectable } from '@nestjs/common';
import { type ReplyAddress, type RoutedTokenChunk, replyChannel, TokenChunk } from '@palaver/contracts';
import { logger, Ports, type PubSub, type ReplyLog } from '@palaver/platform';

/**
 * Publishes a reply's fragments: on its gateway's channel, marked with the reply's id, or on the
 * reply's own channel when the request named none; a replayable reply's also in its reply log
 * (read by resumed streams and stops), in the same turn (one write to Redis). Publishing is best
 * effort: a lost fragment must not stop the reply from being generated and stored.
 */
@Injectable()
export class TokenChannel {
  constructor(
    @Inject(Ports.pubsub) private readonly pubsub: PubSub,
    @Inject(Ports.replyLog) private readonly log: ReplyLog,
  ) {}

  async publish(reply: ReplyAddress, chunk: TokenChunk): Promise<void> {
    try {
      const published = reply.replyTo
        ? this.pubsub.publish(reply.replyTo, { replyId: reply.replyId, chunk } satisfies RoutedTokenChunk)
        : this.pubsub.publish(replyChannel(reply.replyId), chunk);
      if (reply.replayable) await Promise.all([published, this.log.append(reply.replyId, chunk)]);
      else await published;
    } catch (err) {
      logger.warn({ err, replyId: reply.replyId, type: chunk.type }, 'could not publish a reply chunk');
    }
  }

  /** The text of the reply's fragments so far, as its log holds them (what its viewers saw). */
  async textSoFar(replyId: string): Promise<string> {
    let text = '';
    for (const entry of await this.log.entries(replyId)) {
      const chunk = TokenChunk.safeParse(entry);
      if (chunk.success && chunk.data.type === 'delta') text += chunk.data.delta;
    }
    return text;
  }
}
