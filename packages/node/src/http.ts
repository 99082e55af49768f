// One source for both SDKs' errors: scripts/build-sdk.mjs bundles it into each package.
import { errorFromResponse, PalaverNetworkError } from '../../client/src/errors';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestInit {
  body?: unknown;
  query?: Query | undefined;
  signal?: AbortSignal | undefined;
}

/** One authenticated JSON API (surface B or admin): the base address, the auth headers, the fetch to use. */
export class HttpApi {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string>,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Sends the request; an answer outside 2xx throws PalaverApiError, no answer PalaverNetworkError. */
  async send(method: string, path: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { ...this.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal ?? null,
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new PalaverNetworkError(`${method} ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async json<T>(method: string, path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.send(method, path, init);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}

/** A path segment from a caller's value (an app user id may hold any character). */
export const segment = (value: string): string => encodeURIComponent(value);
