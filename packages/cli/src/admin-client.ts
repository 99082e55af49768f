import type { DocumentBody, QnaBody } from '@palaver/contracts';

/** A non-2xx answer of the admin API (or no answer at all: `status` 0). */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** From the Retry-After header, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** Retry-After as delay-seconds or an HTTP date; `now` is a parameter so the parse is pure. */
export const parseRetryAfter = (header: string | null, now: number): number | undefined => {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

export interface AdminClientOptions {
  /** The server's base URL, e.g. http://127.0.0.1:3000 (without /admin/v1). */
  url: string;
  token: string;
  fetch?: typeof fetch;
}

/** The calls of the admin API the import needs, over fetch. */
export class AdminClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: AdminClientOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/admin/v1`;
    this.fetchImpl = options.fetch ?? fetch;
  }

  getProject(projectId: string, signal?: AbortSignal): Promise<{ id: string; name: string }> {
    return this.request('GET', `/projects/${encodeURIComponent(projectId)}`, undefined, signal);
  }

  createDocument(projectId: string, body: DocumentBody, signal?: AbortSignal): Promise<{ id: string }> {
    return this.request('POST', `/projects/${encodeURIComponent(projectId)}/documents`, body, signal);
  }

  createQna(projectId: string, body: QnaBody, signal?: AbortSignal): Promise<{ id: string }> {
    return this.request('POST', `/projects/${encodeURIComponent(projectId)}/qnas`, body, signal);
  }

  private async request<T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new AdminApiError(0, `cannot reach ${this.options.url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    const text = await response.text();
    if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
    let message = text.slice(0, 500) || response.statusText;
    let code: string | undefined;
    try {
      const envelope = JSON.parse(text) as { error?: { message?: string; code?: string } };
      if (envelope.error?.message) message = envelope.error.message;
      code = envelope.error?.code;
    } catch {
      // not the JSON error envelope (a proxy's page, say): keep the raw text
    }
    throw new AdminApiError(
      response.status,
      `${response.status}${code ? ` ${code}` : ''}: ${message}`,
      code,
      parseRetryAfter(response.headers.get('retry-after'), Date.now()),
    );
  }
}
