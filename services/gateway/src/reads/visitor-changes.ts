import { CONVERSATION_CHANGES_CHANNEL, ConversationChange } from '@palaver/contracts';
import { logger, type PubSub } from '@palaver/platform';

/**
 * Who waits to hear that a visitor's conversations changed: the conversation service announces
 * (`CONVERSATION_CHANGES_CHANNEL`) each visitor whose read models it wrote, and this gateway's
 * listeners for that visitor (its open live streams) are called.
 */
export class VisitorChanges {
  private readonly listeners = new Map<string, Set<() => void>>();
  private unsubscribe: (() => Promise<void>) | null = null;

  /** Listens to the announcements; resolves once the subscription is live. */
  async start(pubsub: PubSub): Promise<void> {
    this.unsubscribe = await pubsub.subscribe(CONVERSATION_CHANGES_CHANNEL, (message) => {
      const change = ConversationChange.safeParse(message);
      if (!change.success) return logger.warn({ message }, 'ignored a malformed conversation change');
      for (const listener of this.listeners.get(visitorKey(change.data)) ?? []) listener();
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Calls `onChange` at each change of the visitor's conversations until the returned function is called. */
  listen(visitor: ConversationChange, onChange: () => void): () => void {
    const key = visitorKey(visitor);
    const set = this.listeners.get(key) ?? new Set<() => void>();
    this.listeners.set(key, set);
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }
}

const visitorKey = (visitor: ConversationChange): string => `${visitor.projectId}\n${visitor.visitorId}`;
