import { Redis } from 'ioredis';
import { logger } from '../logger/logger';
import { FAIL_FAST_REDIS_OPTIONS, redisFailure, redisReadiness, runFailFast } from '../redis/redis-availability';
import type { FollowOptions, ReplyLog } from './reply-log.port';

const FIELD = 'e';

/**
 * Reply logs as Redis streams (`<prefix><replyId>`): XADD and PEXPIRE per append, in the same
 * write as the other commands of that turn (auto-pipelining). A follower reads with XRANGE, then
 * XREAD BLOCK on a connection of its own (a blocked connection can do nothing else), closed when
 * it stops; followers are the few clients resuming a reply, never the hot path.
 */
export class RedisReplyLog implements ReplyLog {
  private readonly redis: Redis;
  private readonly ready: () => Promise<void> | undefined;
  private readonly followers = new Set<Redis>();

  constructor(
    private readonly url: string,
    private readonly ttlMs: number,
    private readonly prefix = 'palaver:reply-log:',
  ) {
    this.redis = new Redis(url, { enableAutoPipelining: true, ...FAIL_FAST_REDIS_OPTIONS });
    this.redis.on('error', (err) => logger.warn({ err }, 'redis reply log connection error'));
    this.ready = redisReadiness(this.redis);
  }

  async append(replyId: string, entry: unknown): Promise<void> {
    const key = this.prefix + replyId;
    await this.run(() =>
      Promise.all([this.redis.xadd(key, '*', FIELD, JSON.stringify(entry ?? null)), this.redis.pexpire(key, this.ttlMs)]),
    );
  }

  async entries(replyId: string): Promise<unknown[]> {
    const found = await this.run(() => this.redis.xrange(this.prefix + replyId, '-', '+'));
    return found.map(([, fields]) => decode(fields));
  }

  async *follow(replyId: string, { idleMs, signal }: FollowOptions): AsyncGenerator<unknown> {
    const key = this.prefix + replyId;
    const reader = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    reader.on('error', (err) => logger.debug({ err }, 'redis reply log reader connection error'));
    this.followers.add(reader);
    const stop = () => reader.disconnect();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      await reader.connect();
      let last = '0-0';
      while (!signal?.aborted) {
        const read = await reader.xread('COUNT', 100, 'BLOCK', Math.max(1, idleMs), 'STREAMS', key, last).catch((err: unknown) => {
          if (signal?.aborted) return null;
          throw redisFailure(err);
        });
        const entries = read?.[0]?.[1] ?? [];
        if (entries.length === 0) return;
        for (const [id, fields] of entries) {
          last = id;
          yield decode(fields);
        }
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      this.followers.delete(reader);
      reader.disconnect();
    }
  }

  async close(): Promise<void> {
    for (const reader of this.followers) reader.disconnect();
    this.followers.clear();
    await this.redis.quit().catch(() => undefined);
  }

  private run<T>(command: () => Promise<T>): Promise<T> {
    return runFailFast(this.ready, command);
  }
}

const decode = (fields: string[]): unknown => {
  const at = fields.indexOf(FIELD);
  return at >= 0 ? JSON.parse(fields[at + 1] ?? 'null') : null;
};
