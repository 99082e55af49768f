import { describe, expect, it } from 'vitest';
import { isDueForExtension, isLapsed, withIdleExpiry } from './session';

const info = {
  projectId: '11111111-1111-4111-8111-111111111111',
  visitorId: '22222222-2222-4222-8222-222222222222',
  keyId: '33333333-3333-4333-8333-333333333333',
  assistantId: null,
};

describe('session idle expiry', () => {
  it('lapses exactly after the idle TTL', () => {
    const session = withIdleExpiry(info, 1_000, 60);
    expect(session).toEqual({ ...info, expiresAt: 61_000 });
    expect(isLapsed(session, 60_999)).toBe(false);
    expect(isLapsed(session, 61_000)).toBe(true);
  });

  it('is due for an extension once a tenth of the TTL has passed since the last one', () => {
    const session = withIdleExpiry(info, 0, 100);
    expect(isDueForExtension(session, 9_999, 100)).toBe(false);
    expect(isDueForExtension(session, 10_000, 100)).toBe(true);
  });
});
