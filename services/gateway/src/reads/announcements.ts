import { AGENT_FEED_CHANGES_CHANNEL, AgentFeedChange, CONVERSATION_CHANGES_CHANNEL, ConversationChange } from '@palaver/contracts';
import { logger, type PubSub } from '@palaver/platform';
import type { z } from 'zod';

/**
 * Who in this gateway waits to hear of the changes a service announces on a pub/sub channel, by
 * key (a visitor, a project): the live streams that then ask for news at once.
 */
export class Announcements<T> {
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly everyChange = new Set<(change: T) => void>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly channel: string,
    private readonly schema: z.ZodType<T>,
    private readonly keyOf: (change: T) => string,
  ) {}

  /** Listens to the channel; resolves once the subscription is live. */
  async start(pubsub: PubSub): Promise<void> {
    this.unsubscribe = await pubsub.subscribe(this.channel, (message) => {
      const change = this.schema.safeParse(message);
      if (!change.success) return logger.warn({ message, channel: this.channel }, 'ignored a malformed announcement');
      for (const listener of this.everyChange) listener(change.data);
      for (const listener of this.listeners.get(this.keyOf(change.data)) ?? []) listener();
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Calls `onChange` with every change announced (before the listeners of its key) until the returned function is called. */
  listenAll(onChange: (change: T) => void): () => void {
    this.everyChange.add(onChange);
    return () => this.everyChange.delete(onChange);
  }

  /** Calls `onChange` at each change announced for `about` until the returned function is called. */
  listen(about: T, onChange: () => void): () => void {
    const key = this.keyOf(about);
    const set = this.listeners.get(key) ?? new Set<() => void>();
    this.listeners.set(key, set);
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }
}

/** A visitor, as the key of the announcements (and of the reads cached) about them. */
export const visitorKey = (visitor: ConversationChange): string => `${visitor.projectId}\n${visitor.visitorId}`;

/** The conversation service's announcements of a visitor whose conversations changed (read models written). */
export const visitorChanges = () => new Announcements<ConversationChange>(CONVERSATION_CHANGES_CHANNEL, ConversationChange, visitorKey);

/** The conversation service's announcements of a new entry in a project's agent feed. */
export const agentFeedChanges = () => new Announcements<AgentFeedChange>(AGENT_FEED_CHANGES_CHANNEL, AgentFeedChange, (c) => c.projectId);
