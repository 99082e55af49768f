import { logger } from '../logger/logger';
import type { Delivery, PubSub } from './pubsub.port';

type Listener = (message: unknown) => void;

/**
 * Embedded pub/sub: delivery is immediate and in publish order. Each subscriber gets its own JSON
 * copy, as over the wire, and a subscriber that throws is logged without disturbing the others.
 */
export class InProcessPubSub implements PubSub {
  private readonly channels = new Map<string, Set<Listener>>();
  private closed = false;

  async publish(channel: string, message: unknown): Promise<void> {
    if (this.closed) throw new Error('pub/sub is closed');
    const listeners = this.channels.get(channel);
    if (!listeners || listeners.size === 0) return;
    const json = JSON.stringify(message ?? null);
    for (const listener of [...listeners]) deliver(channel, listener, JSON.parse(json));
  }

  /** Listeners run within `publish`, so it is delivered once published; the process is the one receiver. */
  async publishDelivered(channel: string, message: Record<string, unknown>): Promise<Delivery> {
    const receivers = (this.channels.get(channel)?.size ?? 0) > 0 ? 1 : 0;
    await this.publish(channel, message);
    return { receivers, confirmed: receivers };
  }

  async subscribe(channel: string, onMessage: Listener): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    // A wrapper per subscription, so the same function subscribed twice unsubscribes once each.
    const listener: Listener = (message) => onMessage(message);
    const listeners = this.channels.get(channel) ?? new Set<Listener>();
    listeners.add(listener);
    this.channels.set(channel, listeners);
    return async () => {
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
  }
}

const deliver = (channel: string, listener: Listener, message: unknown): void => {
  try {
    const result: unknown = listener(message);
    if (result instanceof Promise) result.catch((err: unknown) => logger.error({ err, channel }, 'subscriber failed'));
  } catch (err) {
    logger.error({ err, channel }, 'subscriber failed');
  }
};
