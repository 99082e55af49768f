import { PalaverApiError, PalaverNetworkError } from '@palaver/client';

export interface Notice {
  text: string;
  /** Epoch ms until which sending waits (429). */
  retryAt?: number;
  /** The chat cannot work at all (bad key, origin not allowed). */
  fatal?: boolean;
  /** Information, not a failure. */
  info?: boolean;
  /** The service could not be reached: the widget tries again and takes the notice back once it answers. */
  reconnect?: boolean;
}

const isOffline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false;

/** A 403 about the page's origin (the key does not allow this website), not about a conversation. */
export const isOriginRefusal = (error: PalaverApiError): boolean =>
  error.status === 403 && (error.details.origin !== undefined || /origin/i.test(error.message));

/**
 * No answer at all: the client's network error, or a fetch (or a stream being read) failing with
 * a TypeError. Whether the visitor is offline or the service is down, the browser only says so
 * through navigator.onLine.
 */
const isNetworkFailure = (error: unknown): boolean => error instanceof PalaverNetworkError || error instanceof TypeError;

/** A message a visitor understands, for any failure of a call. */
export const noticeFor = (error: unknown, now = Date.now()): Notice => {
  if (error instanceof PalaverApiError) {
    switch (error.status) {
      case 401:
        if (error.code === 'INVALID_USER_TOKEN') return { text: 'Your sign-in has expired. Reload the page to chat again.', fatal: true };
        if (error.code === 'USER_TOKEN_REQUIRED') return { text: 'Please sign in to chat with us.', fatal: true };
        return { text: 'This chat is not available right now (its key is invalid or was revoked).', fatal: true };
      case 403:
        return isOriginRefusal(error)
          ? { text: 'This chat is not enabled on this website.', fatal: true }
          : { text: 'You do not have access to this conversation. Start a new one.' };
      case 409:
        return { text: 'Please wait for the current reply to finish, or start a new conversation if this one has ended.' };
      case 429: {
        const wait = Math.max(1, Math.ceil(error.retryAfter ?? 30));
        return { text: `Too many messages. You can send again in ${wait} s.`, retryAt: now + wait * 1000 };
      }
      case 502:
        return { text: 'The assistant could not answer just now. Please try again in a moment.' };
      case 503:
        return { text: 'The service is busy. Please try again in a moment.' };
      default:
        return { text: error.status >= 500 ? 'Something went wrong on our side. Please try again.' : error.message };
    }
  }
  if (isOffline()) return { text: 'You appear to be offline. Check your connection and try again.', reconnect: true };
  if (isNetworkFailure(error)) return { text: "Can't reach the chat service, retrying…", reconnect: true };
  return { text: 'Something went wrong. Please try again.' };
};

/** The notice's text with the seconds left to wait, if it has a wait. */
export const noticeText = (notice: Notice, now = Date.now()): string =>
  notice.retryAt && notice.retryAt > now
    ? notice.text.replace(/\d+ s\./, `${Math.ceil((notice.retryAt - now) / 1000)} s.`)
    : notice.retryAt
      ? 'You can send messages again.'
      : notice.text;
