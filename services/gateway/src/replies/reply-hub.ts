import { randomUUID } from 'node:crypto';
import { REPLY_STOPS_CHANNEL, RoutedTokenChunk, StoppedReply } from '@palaver/contracts';
import { logger, type PubSub } from '@palaver/platform';
import { type AbandonReason, ReplyListener } from './reply-listener';

/**
 * The gateway's one reply channel (`replies.<id>`, named as `replyTo` in every request that
 * starts a reply): subscribed once at start, so a reply costs no subscription of its own, and
 * each fragment is routed to the listeners of its reply. Fragments of a reply nobody here waits
 * for any more (the wait timed out, the listener closed) are dropped.
 */
export class ReplyHub {
  readonly channel = `replies.${randomUUID()}`;
  private readonly listeners = new Map<string, Set<ReplyListener>>();
  private unsubscribe: Array<() => Promise<void>> = [];

  /** Subscribes to its channel, and to the stopped replies' (a stop ends the listeners of the reply, wherever it was asked). */
  async start(pubsub: PubSub): Promise<void> {
    this.unsubscribe.push(await pubsub.subscribe(this.channel, (message) => this.route(message)));
    this.unsubscribe.push(await pubsub.subscribe(REPLY_STOPS_CHANNEL, (message) => this.stopped(message)));
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = [];
    await Promise.all(unsubscribe.map((off) => off()));
  }

  /**
   * A listener for the fragments of `replyId`, from now on. A reply that stays silent longer than
   * `idleTimeoutMs`, or whose worker died, ends with an error chunk after `onAbandon` (see ReplyListener).
   */
  listen(
    replyId: string,
    idleTimeoutMs: number,
    onAbandon: (partialText: string, reason: AbandonReason) => Promise<unknown> = async () => {},
  ): ReplyListener {
    const listeners = this.listeners.get(replyId) ?? new Set<ReplyListener>();
    this.listeners.set(replyId, listeners);
    const listener = new ReplyListener(idleTimeoutMs, onAbandon, () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(replyId) === listeners) this.listeners.delete(replyId);
    });
    listeners.add(listener);
    return listener;
  }

  /** How many replies are being listened to now. */
  get listening(): number {
    return this.listeners.size;
  }

  private route(message: unknown): void {
    const routed = RoutedTokenChunk.safeParse(message);
    if (!routed.success) {
      logger.warn({ message }, 'ignored a malformed reply fragment');
      return;
    }
    const listeners = this.listeners.get(routed.data.replyId);
    if (listeners) for (const listener of listeners) listener.push(routed.data.chunk);
  }

  private stopped(message: unknown): void {
    const stopped = StoppedReply.safeParse(message);
    if (!stopped.success) return;
    const listeners = this.listeners.get(stopped.data.replyId);
    if (listeners) for (const listener of listeners) listener.push(stopped.data.chunk);
  }
}
