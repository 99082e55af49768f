import type { ConversationChange } from '@palaver/contracts';
import { LRUCache } from 'lru-cache';
import { type Announcements, visitorKey } from './announcements';

export interface VisitorReadCacheOptions {
  /** How long an answer is reused at most, even if the announcement of its change was lost. */
  ttlMs: number;
  /** Visitors whose reads are kept. */
  maxVisitors: number;
  /** Distinct reads (list pages, conversations) kept per visitor. */
  maxReadsPerVisitor: number;
  /** All answers kept, by the length of their JSON; the least recently read visitors go first. */
  maxBytes: number;
  /** An answer longer than this (a long conversation) is not kept. */
  maxAnswerBytes: number;
}

export const DEFAULT_VISITOR_READ_CACHE: VisitorReadCacheOptions = {
  ttlMs: 30_000,
  maxVisitors: 5_000,
  maxReadsPerVisitor: 16,
  maxBytes: 64 * 1024 * 1024,
  maxAnswerBytes: 256 * 1024,
};

/** One visitor's kept answers, as JSON. `epoch` names the visitor's state they were read in (see `read`). */
interface Reads {
  epoch: object;
  answers: ReadonlyMap<string, string>;
  bytes: number;
}

/**
 * The gateway's copy of a visitor's own reads (their conversation list, a conversation, its
 * messages), kept as the JSON they are answered with, so a widget that reloads them costs no
 * service call, and no serialization, while nothing changed.
 *
 * Freshness: the conversation service announces on the pub/sub port (`CONVERSATION_CHANGES_CHANNEL`)
 * whose read models it wrote, before the command that wrote them answers; every gateway drops that
 * visitor's reads (`follow`). A read being fetched while its visitor changes is returned but not
 * kept: the change ends the epoch the read was fetched in. Entries also expire after `ttlMs`, which bounds
 * staleness should an announcement be lost (a pub/sub reconnect). Errors are never kept.
 */
export class VisitorReadCache {
  private readonly visitors: LRUCache<string, Reads>;
  private unfollow: (() => void) | null = null;

  constructor(private readonly options: VisitorReadCacheOptions = DEFAULT_VISITOR_READ_CACHE) {
    this.visitors = new LRUCache({
      max: options.maxVisitors,
      maxSize: options.maxBytes,
      sizeCalculation: (reads) => Math.max(1, reads.bytes),
      ttl: options.ttlMs,
    });
  }

  /** Drops a visitor's reads at each change the conversation service announces of them. */
  follow(changes: Announcements<ConversationChange>): void {
    this.unfollow = changes.listenAll((change) => this.forget(change));
  }

  /**
   * Drops the visitor's reads: at an announcement of their change, and when this gateway answers a
   * write of theirs. On Redis the announcement comes on another connection than the answer and may
   * be read after it, so a read right after the write, through this gateway, must not wait for it.
   */
  forget(visitor: ConversationChange): void {
    this.visitors.delete(visitorKey(visitor));
  }

  /** The answer of a write of the visitor's, their reads dropped once it is made (see `forget`). */
  async forgetAfter<T>(visitor: ConversationChange, write: Promise<T>): Promise<T> {
    const written = await write;
    this.forget(visitor);
    return written;
  }

  stop(): void {
    this.unfollow?.();
    this.unfollow = null;
  }

  /** The visitor's answer to `read` (a key naming the read and its arguments) as JSON, loaded on a miss. */
  async readJson(visitor: ConversationChange, read: string, load: () => Promise<unknown>): Promise<string> {
    const key = visitorKey(visitor);
    let reads = this.visitors.get(key);
    const kept = reads?.answers.get(read);
    if (kept !== undefined) return kept;
    if (!reads) {
      reads = { epoch: {}, answers: new Map(), bytes: 0 };
      this.visitors.set(key, reads);
    }
    const { epoch } = reads;
    const json = JSON.stringify(await load());
    this.keep(key, epoch, read, json);
    return json;
  }

  /** Adds an answer to the visitor's entry if no change ended its epoch meanwhile and it fits. */
  private keep(key: string, epoch: object, read: string, json: string): void {
    const current = this.visitors.peek(key);
    if (current?.epoch !== epoch || current.answers.size >= this.options.maxReadsPerVisitor) return;
    if (json.length > this.options.maxAnswerBytes) return;
    // A new entry object, so the cache weighs it again (and keeps its expiry).
    const answers = new Map(current.answers).set(read, json);
    this.visitors.set(key, { epoch, answers, bytes: current.bytes + json.length }, { noUpdateTTL: true });
  }
}
