import { type Redis, ReplyError } from 'ioredis';
import { dependencyUnavailable } from '../health/dependencies';

/**
 * For connections whose commands must fail fast while Redis is down, rather than wait in
 * ioredis's offline queue for the reconnect (the whole outage) or for its retries to run out
 * (MaxRetriesPerRequestError, seconds later, and not a catalogued error):
 * - no offline queue: a command sent while the connection is not ready is refused at once;
 * - no retries: a command in flight when the connection drops is rejected when it does.
 * Not for BullMQ's workers, which need `maxRetriesPerRequest: null` and wait for the reconnect.
 */
export const FAIL_FAST_REDIS_OPTIONS = { enableOfflineQueue: false, maxRetriesPerRequest: 0 } as const;

/**
 * A refusal or loss of the connection becomes 503 SERVICE_UNAVAILABLE with a retry hint; an error
 * Redis itself answered (ReplyError: a wrong type, a script's error) stays what it is.
 */
export const redisFailure = (err: unknown): unknown => (err instanceof ReplyError ? err : dependencyUnavailable('redis'));

/** A fail-fast connection's command: after its `readiness` check, a lost connection's error as `redisFailure`. */
export const runFailFast = async <T>(readiness: () => Promise<void> | undefined, command: () => Promise<T>): Promise<T> => {
  const waiting = readiness();
  if (waiting) await waiting;
  try {
    return await command();
  } catch (err) {
    throw redisFailure(err);
  }
};

/** Before a connection's first ready, a command waits this long for it, at most (a process starting). */
const FIRST_CONNECT_WAIT_MS = 2_000;

/**
 * A check to make before each command of a fail-fast connection: nothing (a field read) while it is
 * ready; SERVICE_UNAVAILABLE at once once it was ready and is not any more; before its first
 * ready, a wait for it of FIRST_CONNECT_WAIT_MS at most (a command sent as the process starts).
 */
export const redisReadiness = (redis: Redis): (() => Promise<void> | undefined) => {
  let everReady = redis.status === 'ready';
  let first: Promise<void> | null = null;
  redis.once('ready', () => {
    everReady = true;
  });
  return () => {
    if (redis.status === 'ready') return undefined;
    if (everReady || redis.status === 'end') throw dependencyUnavailable('redis');
    first ??= new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        first = null;
        reject(dependencyUnavailable('redis', 'not connected yet'));
      }, FIRST_CONNECT_WAIT_MS);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', onReady);
    });
    return first;
  };
};
