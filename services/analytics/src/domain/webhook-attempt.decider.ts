import { delayAfter } from './webhook-retry.schedule';

/** How one attempt went: a response (any status), or no response at all (refused, timed out, network). */
export type AttemptResult = { kind: 'response'; status: number } | { kind: 'error'; message: string };

export interface AttemptContext {
  /** The attempt's number, 1 for the first. */
  attempt: number;
  result: AttemptResult;
  now: Date;
  retryDelaysMs: readonly number[];
  /** Since when the endpoint's attempts have all failed (before this one); null if the last one succeeded. */
  failingSince: string | null;
  disableAfterMs: number;
}

export interface AttemptDecision {
  delivery: {
    status: 'pending' | 'succeeded' | 'failed';
    attempts: number;
    lastResponseStatus: number | null;
    lastError: string | null;
    nextAttemptAt: string | null;
  };
  /** Wait before the next attempt; null: no next attempt. */
  retryInMs: number | null;
  endpoint: { failingSince: string | null; disabledReason: string | null };
}

export const isSuccess = (result: AttemptResult): boolean => result.kind === 'response' && result.status >= 200 && result.status < 300;

const describeFailure = (result: AttemptResult): string =>
  result.kind === 'error' ? result.message : `the endpoint answered ${result.status}`;

/**
 * What follows an attempt: a 2xx settles the delivery and clears the endpoint's failing streak;
 * anything else schedules the next attempt (or fails the delivery when the schedule is spent),
 * and disables the endpoint once its attempts have all failed for `disableAfterMs`.
 */
export const decideAfterAttempt = ({
  attempt,
  result,
  now,
  retryDelaysMs,
  failingSince,
  disableAfterMs,
}: AttemptContext): AttemptDecision => {
  const lastResponseStatus = result.kind === 'response' ? result.status : null;
  if (isSuccess(result)) {
    return {
      delivery: { status: 'succeeded', attempts: attempt, lastResponseStatus, lastError: null, nextAttemptAt: null },
      retryInMs: null,
      endpoint: { failingSince: null, disabledReason: null },
    };
  }
  const lastError = describeFailure(result);
  const since = failingSince ?? now.toISOString();
  const failingForMs = now.getTime() - Date.parse(since);
  const disabledReason =
    failingForMs >= disableAfterMs ? `disabled: every delivery attempt has failed since ${since} (last: ${lastError})` : null;
  const wait = disabledReason === null ? delayAfter(retryDelaysMs, attempt) : null;
  return {
    delivery: {
      status: wait === null ? 'failed' : 'pending',
      attempts: attempt,
      lastResponseStatus,
      lastError: disabledReason ?? lastError,
      nextAttemptAt: wait === null ? null : new Date(now.getTime() + wait).toISOString(),
    },
    retryInMs: wait,
    endpoint: { failingSince: since, disabledReason },
  };
};
