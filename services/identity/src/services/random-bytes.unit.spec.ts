import { describe, expect, it } from 'vitest';
import { secureRandomBytes } from './random-bytes';

describe('secureRandomBytes', () => {
  it('hands out fresh bytes every time, across refills of its pool', () => {
    const drawn = Array.from({ length: 1_000 }, () => secureRandomBytes(32));
    expect(drawn.every((bytes) => bytes.length === 32)).toBe(true);
    expect(new Set(drawn.map((bytes) => bytes.toString('hex'))).size).toBe(1_000);
    // No draw is a view of the pool: a later draw cannot change it.
    const kept = Buffer.from(drawn[0]!);
    secureRandomBytes(4_000);
    expect(drawn[0]).toEqual(kept);
  });

  it('serves sizes larger than its pool', () => {
    const big = secureRandomBytes(10_000);
    expect(big.length).toBe(10_000);
    expect(new Set(big).size).toBeGreaterThan(200);
  });
});
