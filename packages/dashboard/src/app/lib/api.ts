import { clearToken, readToken } from './session';

/** An error answer of the API: its envelope `{ error: { message, code, details } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();
/** Called when the API rejects the token (401): the app goes back to sign-in. */
export const onSignedOut = (listener: Listener): (() => void) => {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
};

const toApiError = async (response: Response): Promise<ApiError> => {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text) as { error?: { message?: string; code?: string; details?: unknown } };
    if (error?.message) return new ApiError(response.status, error.code ?? 'ERROR', error.message, error.details ?? null);
  } catch {
    // not an envelope: fall through
  }
  return new ApiError(response.status, 'HTTP_ERROR', `${response.status} ${response.statusText}`.trim());
};

/** `body` is sent as JSON; `form` as multipart/form-data (the browser sets its boundary). */
/** `keepalive`: the request outlives the page (sent while it unloads). */
type CallInit = { method?: string; body?: unknown; form?: FormData; signal?: AbortSignal; keepalive?: boolean };

/**
 * The inbox's credential when a person signed in with their own account works it: the session
 * cookie goes by itself, the project is named in a header.
 */
export const sessionAgentToken = (projectId: string): string => `session:${projectId}`;

/**
 * A JSON call with a bearer token, or (no token) with the session cookie the browser sends itself;
 * a network failure or an error answer throws an ApiError.
 */
const bearerFetch = async (url: string, token: string, init: CallInit): Promise<Response> => {
  const headers: Record<string, string> = {};
  if (token.startsWith('session:')) headers['x-project-id'] = token.slice('session:'.length);
  else if (token !== '') headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? (init.body === undefined && init.form === undefined ? 'GET' : 'POST'),
      headers,
      body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      signal: init.signal,
      ...(init.keepalive ? { keepalive: true } : {}),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached. Check your connection and try again.');
  }
  if (!response.ok) throw await toApiError(response);
  return response;
};

/** A call of the admin API (paths below /admin/v1), with the tab's admin token or the session cookie; a 401 signs the tab out. */
export const adminFetch = async (path: string, init: CallInit & { token?: string } = {}) => {
  try {
    return await bearerFetch(`/admin/v1${path}`, init.token ?? readToken() ?? '', init);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && init.token === undefined) {
      clearToken();
      for (const listener of signedOutListeners) listener();
    }
    throw err;
  }
};

export const api = async <T>(path: string, init: Parameters<typeof adminFetch>[1] = {}): Promise<T> => {
  const response = await adminFetch(path, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
};

export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A call of the agents' API (paths below /agent/v1) with an agent's `ak_…` token. */
export const agentFetch = (token: string, path: string, init: CallInit = {}) => bearerFetch(`/agent/v1${path}`, token, init);

export const agentApi = async <T>(token: string, path: string, init: Parameters<typeof agentFetch>[2] = {}): Promise<T | null> => {
  const response = await agentFetch(token, path, init);
  if (response.status === 204) return null;
  return (await response.json()) as T;
};

/** A call of the accounts API (paths below /auth/v1), by session cookie. */
export const authApi = async <T>(path: string, init: CallInit = {}): Promise<T> => {
  const response = await bearerFetch(`/auth/v1${path}`, '', init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
};
