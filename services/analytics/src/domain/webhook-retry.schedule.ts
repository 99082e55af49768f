/** Standard Webhooks' schedule: the waits before the 2nd, 3rd… attempt (8 attempts over about 28 hours). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** WEBHOOK_RETRY_DELAYS_MS (`5000,300000,…`) as a list; unset or blank: the default schedule. */
export const parseRetryDelays = (value: string | undefined): readonly number[] => {
  const delays = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map(Number);
  if (delays.length === 0) return DEFAULT_RETRY_DELAYS_MS;
  if (delays.some((d) => !Number.isSafeInteger(d) || d < 0))
    throw new Error(`WEBHOOK_RETRY_DELAYS_MS: not a list of milliseconds: ${value}`);
  return delays;
};

/** The wait before the attempt after attempt number `attemptsMade` failed, or null when that was the last. */
export const delayAfter = (delays: readonly number[], attemptsMade: number): number | null => delays[attemptsMade - 1] ?? null;
