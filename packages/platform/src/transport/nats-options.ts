import type { ConnectionOptions, NatsConnection } from 'nats';
import { logger } from '../logger/logger';

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

/** Follows the connection's status events; the returned function says whether it is up now. */
export const trackNatsStatus = (nc: NatsConnection): (() => boolean) => {
  let up = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        up = false;
        logger.warn({ server: status.data }, 'NATS disconnected; reconnecting');
      } else if (status.type === 'reconnect') {
        up = true;
        logger.info({ server: status.data }, 'NATS reconnected');
      }
    }
  })();
  return () => up && !nc.isClosed();
};
