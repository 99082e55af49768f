import { Redis } from 'ioredis';
import { registerDependency } from '../health/dependencies';
import { logger } from '../logger/logger';
import type { PubSub } from './pubsub.port';

type Listener = (message: unknown) => void;

/**
 * Redis pub/sub. A connection in subscriber mode can do nothing else, so publishing has its own.
 * Several local subscribers of one channel share one Redis subscription; SUBSCRIBE and UNSUBSCRIBE
 * of a channel are serialized, so a quick unsubscribe/subscribe cannot leave it unsubscribed.
 */
export class RedisPubSub implements PubSub {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Channels Redis has acknowledged a SUBSCRIBE for. */
  private readonly subscribed = new Set<string>();
  private closed = false;
  private readonly unregister: () => void;

  constructor(url: string) {
    // Publications made in the same turn of the event loop (fragments of concurrent replies, the
    // read models' announcements) go out in one write.
    this.publisher = new Redis(url, { lazyConnect: false, enableAutoPipelining: true });
    // No ready check (INFO) on the subscriber: a SUBSCRIBE may go out between connect and ready, and
    // INFO is refused in subscriber mode, which would tear the connection down.
    this.subscriber = new Redis(url, { lazyConnect: false, enableReadyCheck: false });
    this.publisher.on('error', (err) => logger.warn({ err }, 'redis pub/sub publisher connection error'));
    this.subscriber.on('error', (err) => logger.warn({ err }, 'redis pub/sub subscriber connection error'));
    this.subscriber.on('message', (channel: string, raw: string) => this.dispatch(channel, raw));
    this.unregister = registerDependency('redis', () => this.publisher.status === 'ready' && this.subscriber.status === 'ready');
  }

  async publish(channel: string, message: unknown): Promise<void> {
    if (this.closed) throw new Error('pub/sub is closed');
    await this.publisher.publish(channel, JSON.stringify(message ?? null));
  }

  async subscribe(channel: string, onMessage: Listener): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    const listener: Listener = (message) => onMessage(message);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    try {
      await this.sync(channel);
    } catch (err) {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(channel) === set) this.listeners.delete(channel);
      throw err;
    }
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      const current = this.listeners.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.listeners.delete(channel);
        if (!this.closed) await this.sync(channel);
      }
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unregister();
    this.listeners.clear();
    await Promise.allSettled([...this.pending.values()]);
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }

  /**
   * Brings the Redis subscription of a channel in line with whether it has local listeners, after
   * whatever change of that channel is already in flight. Resolves once Redis has acknowledged.
   */
  private sync(channel: string): Promise<void> {
    const previous = this.pending.get(channel) ?? Promise.resolve();
    const next = previous.then(async () => {
      const wanted = this.listeners.has(channel);
      const active = this.subscribed.has(channel);
      if (wanted && !active) {
        await this.subscriber.subscribe(channel);
        this.subscribed.add(channel);
      } else if (!wanted && active) {
        this.subscribed.delete(channel);
        await this.subscriber.unsubscribe(channel);
      }
    });
    const settled = next.catch(() => undefined);
    this.pending.set(channel, settled);
    void settled.then(() => {
      if (this.pending.get(channel) === settled) this.pending.delete(channel);
    });
    return next;
  }

  private dispatch(channel: string, raw: string): void {
    const set = this.listeners.get(channel);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        const result: unknown = listener(JSON.parse(raw));
        if (result instanceof Promise) result.catch((err: unknown) => logger.error({ err, channel }, 'subscriber failed'));
      } catch (err) {
        logger.error({ err, channel }, 'subscriber failed');
      }
    }
  }
}
