import { PalaverApiError, PalaverNetworkError } from '@palaver/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noticeFor, noticeText } from './error-notice';

const api = (status: number, message = 'x', details: Record<string, unknown> = {}) => new PalaverApiError(status, 'CODE', message, details);

describe('noticeFor', () => {
  it('words each status for a visitor', () => {
    expect(noticeFor(api(401))).toMatchObject({ fatal: true, text: expect.stringContaining('key') });
    const refusedToken = (code: string) => new PalaverApiError(401, code, 'x', {});
    expect(noticeFor(refusedToken('INVALID_USER_TOKEN'))).toMatchObject({
      fatal: true,
      text: expect.stringContaining('sign-in has expired'),
    });
    expect(noticeFor(refusedToken('USER_TOKEN_REQUIRED'))).toMatchObject({ fatal: true, text: expect.stringContaining('sign in') });
    expect(noticeFor(api(403, 'origin https://a.example is not allowed for this key', { origin: 'https://a.example' }))).toMatchObject({
      fatal: true,
      text: 'This chat is not enabled on this website.',
    });
    expect(noticeFor(api(403, 'You do not have access to this conversation')).fatal).toBeUndefined();
    expect(noticeFor(api(409)).text).toContain('wait for the current reply');
    expect(noticeFor(api(502)).text).toContain('could not answer');
  });

  describe('without an answer', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('says the service cannot be reached while the browser is online', () => {
      vi.stubGlobal('navigator', { onLine: true });
      const expected = { text: "Can't reach the chat service, retrying…", reconnect: true };
      expect(noticeFor(new PalaverNetworkError('could not reach http://127.0.0.1:1: fetch failed'))).toEqual(expected);
      // A stream cut off while it was read fails with the fetch's TypeError.
      expect(noticeFor(new TypeError('network error'))).toEqual(expected);
    });

    it('says the visitor is offline when the browser is', () => {
      vi.stubGlobal('navigator', { onLine: false });
      expect(noticeFor(new PalaverNetworkError('refused'))).toEqual({
        text: 'You appear to be offline. Check your connection and try again.',
        reconnect: true,
      });
    });
  });

  it('counts down the wait of a 429', () => {
    const notice = noticeFor(api(429, 'slow down', { retryAfter: 12 }), 1_000);
    expect(notice).toEqual({ text: 'Too many messages. You can send again in 12 s.', retryAt: 13_000 });
    expect(noticeText(notice, 6_500)).toBe('Too many messages. You can send again in 7 s.');
    expect(noticeText(notice, 13_000)).toBe('You can send messages again.');
  });
});
