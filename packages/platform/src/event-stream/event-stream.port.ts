export interface StreamMessage {
  subject: string;
  payload: unknown;
  /** Position in the stream, increasing. */
  seq: number;
}

export interface StreamSubscription {
  stop(): Promise<void>;
}

/**
 * Durable domain-event stream (JetStream in distributed mode). Publishing is idempotent by
 * `msgId`; a durable consumer resumes after its last acknowledged message across restarts and
 * gets a message again when its handler throws (at-least-once).
 */
export interface EventStream {
  publish(subject: string, payload: unknown, msgId: string): Promise<void>;
  /** `filter` uses NATS wildcards: `*` one token, `>` the rest. */
  subscribe(durable: string, filter: string, handler: (message: StreamMessage) => Promise<void>): Promise<StreamSubscription>;
  close(): Promise<void>;
}
