import { TYPING_CHANNEL, TYPING_MIN_INTERVAL_MS, type TypingEvent, TypingSignal } from '@palaver/contracts';
import { type Clock, logger, type PubSub } from '@palaver/platform';

type Side = TypingEvent['by'];
type Listener = (event: TypingEvent) => void;

/** Senders' last accepted signals kept before the map is swept of the stale ones. */
const SWEEP_AT = 10_000;

/**
 * Typing signals between the gateways: ephemeral, never stored, best effort. A signal goes out
 * on the pub/sub port (Redis in distributed mode, in the process embedded) and each gateway hands
 * it to its own open streams: the visitor's live events of that conversation for an agent's
 * signal, the project's agents' feeds for a visitor's. Extras within TYPING_MIN_INTERVAL_MS per
 * conversation and side are dropped here (per gateway instance), before they cost a publish.
 */
export class TypingHub {
  private readonly lastAccepted = new Map<string, number>();
  private readonly visitors = new Map<string, Set<Listener>>();
  private readonly agents = new Map<string, Set<Listener>>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly pubsub: PubSub,
    private readonly clock: Clock,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(TYPING_CHANNEL, (message) => {
      const signal = TypingSignal.safeParse(message);
      if (!signal.success) return logger.warn({ channel: TYPING_CHANNEL }, 'ignored a malformed typing signal');
      const { projectId, event } = signal.data;
      const listeners = event.by === 'agent' ? this.visitors.get(event.conversationId) : this.agents.get(projectId);
      for (const listener of listeners ?? []) listener(event);
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /**
   * Whether this side of the conversation may signal now (at most one per TYPING_MIN_INTERVAL_MS);
   * taking the slot when it may.
   */
  accept(conversationId: string, side: Side): boolean {
    const now = this.clock.now().getTime();
    const key = `${side}:${conversationId}`;
    const last = this.lastAccepted.get(key);
    if (last !== undefined && now - last < TYPING_MIN_INTERVAL_MS) return false;
    if (this.lastAccepted.size >= SWEEP_AT) this.sweep(now);
    this.lastAccepted.set(key, now);
    return true;
  }

  /** Fire and forget: a signal lost to a pub/sub hiccup is only an indicator that does not show. */
  async publish(projectId: string, event: TypingEvent): Promise<void> {
    await this.pubsub.publish(TYPING_CHANNEL, { projectId, event } satisfies TypingSignal).catch((err: unknown) => {
      logger.warn({ err, conversationId: event.conversationId }, 'could not publish a typing signal');
    });
  }

  /** Agents' typing in this conversation, for the visitor's live events; returns how to stop. */
  forVisitor(conversationId: string, listener: Listener): () => void {
    return this.listen(this.visitors, conversationId, listener);
  }

  /** Visitors' typing in the project's conversations, for an agent's feed; returns how to stop. */
  forAgents(projectId: string, listener: Listener): () => void {
    return this.listen(this.agents, projectId, listener);
  }

  private listen(map: Map<string, Set<Listener>>, key: string, listener: Listener): () => void {
    const set = map.get(key) ?? new Set<Listener>();
    map.set(key, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && map.get(key) === set) map.delete(key);
    };
  }

  private sweep(now: number): void {
    for (const [key, at] of this.lastAccepted) if (now - at >= TYPING_MIN_INTERVAL_MS) this.lastAccepted.delete(key);
  }
}
