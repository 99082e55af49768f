export interface StreamMessage {
  subject: string;
  payload: unknown;
  /** Position in the stream, increasing. */
  seq: number;
}

export interface StreamSubscription {
  stop(): Promise<void>;
}

/** What a dead-letter subject carries: the message a durable consumer gave up on, and why. */
export interface DeadLetter {
  durable: string;
  subject: string;
  seq: number;
  payload: unknown;
  error: string;
  deliveries: number;
}

/** Tries before a message whose handler keeps throwing is dead-lettered (adapters' default). */
export const DEFAULT_MAX_DELIVERIES = 5;

/**
 * Durable domain-event stream (JetStream in distributed mode). Publishing is idempotent by
 * `msgId`; a durable consumer resumes after its last acknowledged message across restarts and
 * gets a message again when its handler throws (at-least-once), up to a number of tries: then
 * the message goes to the consumer's dead-letter subject (a `DeadLetter`) and the next one comes,
 * so one poison event cannot block a consumer. Messages are kept for a bounded time (both
 * adapters: 30 days by default), consumed or not; a consumer behind them goes on from the oldest
 * one kept, and an expired message's `msgId` may be published again.
 */
export interface EventStream {
  /** Where `durable`'s dead letters are published (subscribe to it to inspect them). */
  deadLetterSubject(durable: string): string;
  publish(subject: string, payload: unknown, msgId: string): Promise<void>;
  /** `filter` uses NATS wildcards: `*` one token, `>` the rest. */
  subscribe(durable: string, filter: string, handler: (message: StreamMessage) => Promise<void>): Promise<StreamSubscription>;
  /**
   * As `subscribe`, but hands the handler up to `maxBatch` messages at once (those already waiting,
   * in stream order), so that it can write them together. A batch is acknowledged whole once the
   * handler resolves; when it throws, its messages come again one at a time, with `subscribe`'s
   * retries and dead letters, so one poison message does not hold the others back. Instances
   * sharing the durable may each be handling a batch at the same time (JetStream: up to
   * `maxBatch` messages are pending across them), so handlers must not rely on the order of
   * messages in different batches.
   */
  subscribeBatches(
    durable: string,
    filter: string,
    handler: (messages: StreamMessage[]) => Promise<void>,
    maxBatch: number,
  ): Promise<StreamSubscription>;
  close(): Promise<void>;
}
