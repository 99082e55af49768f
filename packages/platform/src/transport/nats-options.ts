import type { ConnectionOptions } from 'nats';

/**
 * Every NATS connection:
 * - reconnects forever (the client's default gives up after 10 tries, about 20 s, and never
 *   recovers): an outage of any length ends with the connection back;
 * - skips the `Error` (a stack trace) the client otherwise makes for every request and request
 *   timer, in case it fails: a few percent of a message's CPU, and a failed request's error
 *   still names its subject and code.
 */
export const natsConnectionOptions: Pick<
  ConnectionOptions,
  'maxReconnectAttempts' | 'reconnectTimeWait' | 'waitOnFirstConnect' | 'noAsyncTraces'
> = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 1_000,
  waitOnFirstConnect: true,
  noAsyncTraces: true,
};
