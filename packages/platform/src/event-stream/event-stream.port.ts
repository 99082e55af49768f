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
 * so one poison event cannot block a consumer.
 */
export interface EventStream {
  /** Where `durable`'s dead letters are published (subscribe to it to inspect them). */
  deadLetterSubject(durable: string): string;
  publish(subject: string, payload: unknown, msgId: string): Promise<void>;
  /** `filter` uses NATS wildcards: `*` one token, `>` the rest. */
  subscribe(durable: string, filter: string, handler: (message: StreamMessage) => Promise<void>): Promise<StreamSubscription>;
  close(): Promise<void>;
}
