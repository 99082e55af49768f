import { describe, expect, it } from 'vitest';
import { decideAfterAttempt } from './webhook-attempt.decider';
import { deliveryIdOf, subscribes, unknownEventTypes } from './webhook-endpoint';
import { DEFAULT_RETRY_DELAYS_MS, delayAfter, parseRetryDelays } from './webhook-retry.schedule';

const now = new Date('2026-03-01T12:00:00.000Z');
const base = { now, retryDelaysMs: [1_000, 2_000], failingSince: null, disableAfterMs: 3_600_000 };

describe('the retry schedule', () => {
  it('defaults to Standard Webhooks’ schedule and takes a comma-separated override', () => {
    expect(parseRetryDelays(undefined)).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(parseRetryDelays(' ')).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(parseRetryDelays('100, 200,300')).toEqual([100, 200, 300]);
    expect(() => parseRetryDelays('100,-1')).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3_600_000);
  });

  it('gives the wait after each failed attempt, none after the last', () => {
    expect([1, 2, 3].map((n) => delayAfter([10, 20], n))).toEqual([10, 20, null]);
  });
});

describe('after an attempt', () => {
  it('a 2xx settles the delivery and ends the endpoint’s failing streak', () => {
    const decision = decideAfterAttempt({
      ...base,
      attempt: 2,
      result: { kind: 'response', status: 204 },
      failingSince: '2026-03-01T11:00:00.000Z',
    });
    expect(decision).toEqual({
      delivery: { status: 'succeeded', attempts: 2, lastResponseStatus: 204, lastError: null, nextAttemptAt: null },
      retryInMs: null,
      endpoint: { failingSince: null, disabledReason: null },
    });
  });

  it('anything else schedules the next attempt, then fails the delivery when the schedule is spent', () => {
    const first = decideAfterAttempt({ ...base, attempt: 1, result: { kind: 'response', status: 302 } });
    expect(first.delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastResponseStatus: 302,
      nextAttemptAt: '2026-03-01T12:00:01.000Z',
    });
    expect(first.retryInMs).toBe(1_000);
    expect(first.endpoint).toEqual({ failingSince: now.toISOString(), disabledReason: null });
    const last = decideAfterAttempt({
      ...base,
      attempt: 3,
      result: { kind: 'error', message: 'timed out' },
      failingSince: now.toISOString(),
    });
    expect(last.delivery).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastResponseStatus: null,
      lastError: 'timed out',
      nextAttemptAt: null,
    });
    expect(last.retryInMs).toBeNull();
  });

  it('disables an endpoint whose attempts have all failed for the disable period, with the reason', () => {
    const decision = decideAfterAttempt({
      ...base,
      attempt: 1,
      result: { kind: 'response', status: 500 },
      failingSince: '2026-03-01T11:00:00.000Z',
    });
    expect(decision.endpoint.disabledReason).toBe(
      'disabled: every delivery attempt has failed since 2026-03-01T11:00:00.000Z (last: the endpoint answered 500)',
    );
    expect(decision.delivery.status).toBe('failed');
    expect(decision.retryInMs).toBeNull();
  });
});

describe('endpoints', () => {
  it('knows the feed types and "*"; the test event reaches every endpoint', () => {
    expect(unknownEventTypes(['*', 'feedback.given', 'order.paid'])).toEqual(['order.paid']);
    expect(subscribes(['feedback.given'], 'feedback.given')).toBe(true);
    expect(subscribes(['feedback.given'], 'message.posted')).toBe(false);
    expect(subscribes(['*'], 'message.posted')).toBe(true);
    expect(subscribes(['feedback.given'], 'webhook.test')).toBe(true);
  });

  it('names one delivery per endpoint and event, as a valid uuid', () => {
    const id = deliveryIdOf('w1', 'e1');
    expect(id).toBe(deliveryIdOf('w1', 'e1'));
    expect(id).not.toBe(deliveryIdOf('w2', 'e1'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
