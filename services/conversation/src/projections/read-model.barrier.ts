import { Injectable } from '@nestjs/common';

/** The conversation a write changed: reads of it, and of its visitor's list, wait for the write. */
export interface ReadModelScope {
  projectId: string;
  visitorId: string;
  conversationId: string;
}

const conversationKey = (projectId: string, conversationId: string) => `c\n${projectId}\n${conversationId}`;
const visitorKey = (projectId: string, visitorId: string) => `v\n${projectId}\n${visitorId}`;

/**
 * The read-model writes this process has under way for events that are already durable, so that
 * a read waits for them: a reply's first fragment reaches the visitor before the command's read
 * models are written (docs/architecture.md, "The message path"), and a read made during the
 * stream must still show the message and the reply. A read with nothing pending waits for nothing.
 *
 * Only this process's writes are known: a read answered by another conversation instance (several
 * of them on MongoDB) can still come before the write, for the time a projection takes.
 */
@Injectable()
export class ReadModelBarrier {
  private readonly pending = new Map<string, Set<Promise<void>>>();

  /** Holds the reads of `scope` from now until the promise `write()` returns settles; returns that promise. */
  hold<T>(scope: ReadModelScope, write: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const settled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const keys = [conversationKey(scope.projectId, scope.conversationId), visitorKey(scope.projectId, scope.visitorId)];
    for (const key of keys) {
      const set = this.pending.get(key) ?? new Set();
      this.pending.set(key, set.add(settled));
    }
    const written = (async () => write())();
    void written
      .catch(() => undefined)
      .then(() => {
        for (const key of keys) {
          const set = this.pending.get(key);
          set?.delete(settled);
          if (set?.size === 0) this.pending.delete(key);
        }
        release();
      });
    return written;
  }

  /** Resolves once the writes under way for this conversation have settled. */
  conversation(projectId: string, conversationId: string): Promise<void> | undefined {
    return this.waitFor(conversationKey(projectId, conversationId));
  }

  /** Resolves once the writes under way for any of this visitor's conversations have settled. */
  visitor(projectId: string, visitorId: string): Promise<void> | undefined {
    return this.waitFor(visitorKey(projectId, visitorId));
  }

  /** `undefined` when nothing is pending. */
  private waitFor(key: string): Promise<void> | undefined {
    const set = this.pending.get(key);
    return set ? Promise.all(set).then(() => undefined) : undefined;
  }
}
