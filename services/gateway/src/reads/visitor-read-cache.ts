import { CONVERSATION_CHANGES_CHANNEL, ConversationChange } from '@palaver/contracts';
import { logger, type PubSub } from '@palaver/platform';
import { LRUCache } from 'lru-cache';

export interface VisitorReadCacheOptions {
  /** How long an answer is reused at most, even if the announcement of its change was lost. */
  ttlMs: number;
  /** Visitors whose reads are kept. */
  maxVisitors: number;
  /** Distinct reads (list pages, conversations) kept per visitor. */
  maxReadsPerVisitor: number;
}

export const DEFAULT_VISITOR_READ_CACHE: VisitorReadCacheOptions = { ttlMs: 30_000, maxVisitors: 5_000, maxReadsPerVisitor: 16 };

type Reads = Map<string, unknown>;

/**
 * The gateway's copy of a visitor's own reads (their conversation list, a conversation, its
 * messages), so a widget that reloads them costs no service call while nothing changed.
 *
 * Freshness: the conversation service announces on the pub/sub port (`CONVERSATION_CHANGES_CHANNEL`)
 * whose read models it wrote, before the command that wrote them answers; every gateway drops that
 * visitor's reads. A read being fetched while its visitor changes is returned but not kept: the
 * change replaces the visitor's entry, and the answer is kept only in the entry it was fetched for.
 * Entries also expire after `ttlMs`, which bounds staleness should an announcement be lost (a
 * pub/sub reconnect). Errors are never kept.
 */
export class VisitorReadCache {
  private readonly visitors: LRUCache<string, Reads>;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly options: VisitorReadCacheOptions = DEFAULT_VISITOR_READ_CACHE) {
    this.visitors = new LRUCache({ max: options.maxVisitors, ttl: options.ttlMs });
  }

  /** Listens to the conversation service's announcements; resolves once the subscription is live. */
  async start(pubsub: PubSub): Promise<void> {
    this.unsubscribe = await pubsub.subscribe(CONVERSATION_CHANGES_CHANNEL, (message) => {
      const change = ConversationChange.safeParse(message);
      if (change.success) this.visitors.delete(visitorKey(change.data));
      else logger.warn({ message }, 'ignored a malformed conversation change');
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The visitor's answer to `read` (a key naming the read and its arguments), loaded on a miss. */
  async read<T>(visitor: ConversationChange, read: string, load: () => Promise<T>): Promise<T> {
    const key = visitorKey(visitor);
    let reads = this.visitors.get(key);
    if (reads?.has(read)) return reads.get(read) as T;
    if (!reads) {
      reads = new Map();
      this.visitors.set(key, reads);
    }
    const value = await load();
    if (this.visitors.peek(key) === reads && reads.size < this.options.maxReadsPerVisitor) reads.set(read, value);
    return value;
  }
}

const visitorKey = (visitor: ConversationChange): string => `${visitor.projectId}\n${visitor.visitorId}`;
