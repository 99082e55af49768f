/** What `publishDelivered` knows of a message's delivery once it resolves. */
export interface Delivery {
  /** The pub/sub clients subscribed to the channel that received it (each process's adapter counts once). */
  receivers: number;
  /** Of those, how many had handed it to their listeners when the call resolved. */
  confirmed: number;
}

/** Fire-and-forget pub/sub (Redis in distributed mode): nobody listening, nothing kept. */
export interface PubSub {
  publish(channel: string, message: unknown): Promise<void>;
  /**
   * Publishes `message` and resolves once every subscriber that received it has handed it to its
   * listeners, or after `timeoutMs` (then `confirmed` is below `receivers`). For announcements
   * that must have taken effect everywhere before the caller answers (a revoked key); subscribers
   * see the message as one from `publish`.
   */
  publishDelivered(channel: string, message: Record<string, unknown>, timeoutMs: number): Promise<Delivery>;
  /** Resolves once the subscription is live; returns the unsubscribe. */
  subscribe(channel: string, onMessage: (message: unknown) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
