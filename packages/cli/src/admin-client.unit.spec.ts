import { describe, expect, it } from 'vitest';
import { AdminApiError, AdminClient, parseRetryAfter } from './admin-client';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('AdminClient', () => {
  it('sends the bearer token and JSON body, and turns the error envelope into an AdminApiError', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ error: { message: 'slow down', code: 'RATE_LIMITED' } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '2' },
      });
    }) as unknown as typeof fetch;
    const client = new AdminClient({ url: 'http://palaver.test/', token: 'secret', fetch: fakeFetch });
    const error = await client.createQna('p1', { question: 'q', answer: 'a' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 2000, message: '429 RATE_LIMITED: slow down' });
    expect(calls[0]?.url).toBe('http://palaver.test/admin/v1/projects/p1/qnas');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.headers).toEqual({ authorization: 'Bearer secret', 'content-type': 'application/json' });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ question: 'q', answer: 'a' });
  });
});
