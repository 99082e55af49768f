// The errors of both SDKs: @palaver/node imports this file and scripts/build-sdk.mjs bundles it into each.
/** An error answered by the API, in the spec's envelope `{ error: { message, code, details } }`. */
export class PalaverApiError extends Error {
  override readonly name = 'PalaverApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** Seconds to wait before retrying (429, 503), from `details.retryAfter` or `Retry-After`. */
  get retryAfter(): number | null {
    const value = Number(this.details.retryAfter);
    return Number.isFinite(value) && value >= 0 ? value : null;
  }
}

/** Thrown when the request never got an answer (offline, DNS, connection refused, reset; in a browser also CORS). */
export class PalaverNetworkError extends Error {
  override readonly name = 'PalaverNetworkError';
}

export const errorFromResponse = async (response: Response): Promise<PalaverApiError> => {
  const text = await response.text().catch(() => '');
  let envelope: { error?: { message?: unknown; code?: unknown; details?: unknown } } = {};
  try {
    envelope = JSON.parse(text);
  } catch {
    // not JSON (a proxy's error page): keep the status
  }
  const error = envelope.error ?? {};
  const details = error.details && typeof error.details === 'object' ? { ...(error.details as Record<string, unknown>) } : {};
  const retryAfterHeader = response.headers.get('retry-after');
  if (details.retryAfter === undefined && retryAfterHeader) details.retryAfter = Number(retryAfterHeader);
  return new PalaverApiError(
    response.status,
    typeof error.code === 'string' ? error.code : `HTTP_${response.status}`,
    typeof error.message === 'string' ? error.message : text.slice(0, 200) || response.statusText,
    details,
  );
};
