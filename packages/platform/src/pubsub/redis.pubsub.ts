import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { registerDependency } from '../health/dependencies';
import { logger } from '../logger/logger';
import { FAIL_FAST_REDIS_OPTIONS, redisFailure, redisReadiness } from '../redis/redis-availability';
import type { Delivery, PubSub } from './pubsub.port';

type Listener = (message: unknown) => void;

/**
 * The field `publishDelivered` adds to its message: where a subscriber confirms it. Subscribers
 * take it off before their listeners see the message (one of an older version would pass it on;
 * the schemas it meets drop unknown fields).
 */
const DELIVERY_FIELD = '__delivery';

interface DeliveryMark {
  id: string;
  confirmTo: string;
}

interface AwaitedDelivery {
  confirmed: number;
  /** Unknown until Redis answers the PUBLISH: confirmations may come before it does. */
  receivers: number;
  settle(): void;
}

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
  /** This instance's channel for the confirmations of what it published with `publishDelivered`. */
  private readonly confirmations = `pubsub.delivered.${randomUUID()}`;
  private confirmationsLive: Promise<unknown> | null = null;
  private readonly awaiting = new Map<string, AwaitedDelivery>();
  private readonly publisherReady: () => Promise<void> | undefined;

  constructor(url: string) {
    // Publications made in the same turn of the event loop (fragments of concurrent replies, the
    // read models' announcements) go out in one write. While Redis is down they fail at once
    // (SERVICE_UNAVAILABLE): a message published then would reach no subscriber anyway.
    this.publisher = new Redis(url, { lazyConnect: false, enableAutoPipelining: true, ...FAIL_FAST_REDIS_OPTIONS });
    this.publisherReady = redisReadiness(this.publisher);
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
    const waiting = this.publisherReady();
    if (waiting) await waiting;
    try {
      await this.publisher.publish(channel, JSON.stringify(message ?? null));
    } catch (err) {
      throw redisFailure(err);
    }
  }

  /**
   * Each subscribed connection's adapter confirms the message on this instance's own channel once
   * its listeners have had it; Redis's answer to the PUBLISH says how many connections received it.
   */
  async publishDelivered(channel: string, message: Record<string, unknown>, timeoutMs: number): Promise<Delivery> {
    if (this.closed) throw new Error('pub/sub is closed');
    const waiting = this.publisherReady();
    if (waiting) await waiting;
    this.confirmationsLive ??= this.subscribe(this.confirmations, (confirmation) => this.confirmed(confirmation)).catch((err) => {
      this.confirmationsLive = null;
      throw err;
    });
    await this.confirmationsLive;
    const id = randomUUID();
    const awaited: AwaitedDelivery = { confirmed: 0, receivers: Number.POSITIVE_INFINITY, settle: () => undefined };
    const settled = new Promise<void>((resolve) => (awaited.settle = resolve));
    this.awaiting.set(id, awaited);
    const timer = setTimeout(() => awaited.settle(), timeoutMs);
    try {
      const mark: DeliveryMark = { id, confirmTo: this.confirmations };
      awaited.receivers = await this.publisher
        .publish(channel, JSON.stringify({ ...message, [DELIVERY_FIELD]: mark }))
        .catch((err: unknown) => {
          throw redisFailure(err);
        });
      if (awaited.confirmed >= awaited.receivers) awaited.settle();
      await settled;
      return { receivers: awaited.receivers, confirmed: Math.min(awaited.confirmed, awaited.receivers) };
    } finally {
      clearTimeout(timer);
      this.awaiting.delete(id);
    }
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
    for (const awaited of this.awaiting.values()) awaited.settle();
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
    let mark: DeliveryMark | null = null;
    const set = this.listeners.get(channel);
    for (const listener of set ? [...set] : []) {
      try {
        const message: unknown = JSON.parse(raw);
        mark = takeDeliveryMark(message) ?? mark;
        const result: unknown = listener(message);
        if (result instanceof Promise) result.catch((err: unknown) => logger.error({ err, channel }, 'subscriber failed'));
      } catch (err) {
        logger.error({ err, channel }, 'subscriber failed');
      }
    }
    // Redis counted this connection (even one that has just lost its last listener): confirm.
    if (!set) mark = takeDeliveryMark(parseQuietly(raw));
    if (mark) {
      this.publisher
        .publish(mark.confirmTo, JSON.stringify({ id: mark.id }))
        .catch((err: unknown) => logger.warn({ err, channel }, 'could not confirm a delivered message'));
    }
  }

  private confirmed(confirmation: unknown): void {
    const id = (confirmation as { id?: unknown } | null)?.id;
    const awaited = typeof id === 'string' ? this.awaiting.get(id) : undefined;
    if (!awaited) return;
    awaited.confirmed += 1;
    if (awaited.confirmed >= awaited.receivers) awaited.settle();
  }
}

/** Takes `publishDelivered`'s field off a message (each listener's copy), returning it. */
const takeDeliveryMark = (message: unknown): DeliveryMark | null => {
  if (typeof message !== 'object' || message === null || !(DELIVERY_FIELD in message)) return null;
  const record = message as Record<string, unknown>;
  const mark = record[DELIVERY_FIELD] as Partial<DeliveryMark> | null;
  delete record[DELIVERY_FIELD];
  return typeof mark?.id === 'string' && typeof mark.confirmTo === 'string' ? { id: mark.id, confirmTo: mark.confirmTo } : null;
};

const parseQuietly = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
};
