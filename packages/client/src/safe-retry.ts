import { PalaverApiError, PalaverNetworkError } from './errors';

/** A new Idempotency-Key: one per logical send, reused by its retries. */
export const newIdempotencyKey = (): string => {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context a browser has no randomUUID: 122 random bits from getRandomValues.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

export interface SafeRetryOptions {
  /** Tries after the first (default 4). */
  retries: number;
  /** Pause before retry n (from 0), in ms; default 250 ms doubling. */
  delayMs?: (retry: number) => number;
  signal?: AbortSignal | undefined;
}

/**
 * Runs a request that carries an Idempotency-Key again when it got no answer (a network error)
 * or while its first try is still being handled (409 IDEMPOTENCY_KEY_IN_USE): the server answers
 * a repeat of a finished request with its first answer, so nothing is done twice.
 */
export const withSafeRetries = async <T>(attempt: () => Promise<T>, options: SafeRetryOptions): Promise<T> => {
  const delay = options.delayMs ?? ((retry) => 250 * 2 ** retry);
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= options.retries || !retryable(error) || options.signal?.aborted) throw error;
      await pause(delay(retry), options.signal);
    }
  }
};

const retryable = (error: unknown): boolean =>
  error instanceof PalaverNetworkError || (error instanceof PalaverApiError && error.code === 'IDEMPOTENCY_KEY_IN_USE');

const pause = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
