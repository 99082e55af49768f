import { PalaverApiError, PalaverNetworkError } from '@palaver/client';

/** The pause before try number `attempt` (from 0): 1 s, doubling, at most 10 s. */
export const retryDelay = (attempt: number): number => Math.min(10_000, 1_000 * 2 ** attempt);

/**
 * Waits `ms` before trying again; the browser coming back online ends the wait at once, and so
 * does `signal` (the widget was removed).
 */
export const waitToRetry = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
    signal.addEventListener('abort', done);
  });

/** A failure that may pass: no answer (offline, service down), a timeout, a wait (429), or a 5xx. */
export const worthRetrying = (error: unknown): boolean =>
  error instanceof PalaverNetworkError ||
  error instanceof TypeError ||
  (error instanceof PalaverApiError && (error.status >= 500 || error.status === 408 || error.status === 429));
