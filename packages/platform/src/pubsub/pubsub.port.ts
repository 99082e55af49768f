/** Fire-and-forget pub/sub (Redis in distributed mode): nobody listening, nothing kept. */
export interface PubSub {
  publish(channel: string, message: unknown): Promise<void>;
  /** Resolves once the subscription is live; returns the unsubscribe. */
  subscribe(channel: string, onMessage: (message: unknown) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
