import { PalaverApiError } from '@palaver/client';
import { isOriginRefusal } from './error-notice';

let warned = false;

/**
 * Whether the key itself was refused (not allowed on this origin, invalid or revoked): a chat
 * that cannot work on this page. A 403 about someone else's conversation is not that.
 */
export const keyRefused = (error: unknown): error is PalaverApiError =>
  error instanceof PalaverApiError && (error.status === 401 || isOriginRefusal(error));

/**
 * Tells the site owner, once per page, in the console, why the chat is not shown and what to
 * change: the visitor cannot fix it, so the page shows nothing.
 */
export const warnSiteOwner = (error: PalaverApiError): void => {
  if (warned) return;
  warned = true;
  const { origin } = window.location;
  const userToken = error.code === 'INVALID_USER_TOKEN' || error.code === 'USER_TOKEN_REQUIRED';
  console.warn(
    userToken
      ? `Palaver: the chat is not shown on ${origin}: ${error.code === 'USER_TOKEN_REQUIRED' ? 'this project requires a verified user token and none was given' : `the user token was refused (${error.message})`}. Sign a fresh token on your backend with the project's identity secret and pass it as data-user-token or Palaver.identify(token) (docs/widget.md).`
      : isOriginRefusal(error)
        ? `Palaver: the chat is not shown on ${origin}: its key does not allow this origin. Add ${origin} to the key's allowed origins in the Palaver dashboard (Keys), or use a key that allows it.`
        : `Palaver: the chat is not shown on ${origin}: its key (data-key) is invalid or was revoked (${error.status}: ${error.message}). Use a valid publishable key from the Palaver dashboard (Keys).`,
  );
};
