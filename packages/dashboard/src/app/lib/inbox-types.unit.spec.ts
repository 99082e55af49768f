import { TYPING_TTL_MS as CONTRACT_TTL, TYPING_MIN_INTERVAL_MS } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { TYPING_EVERY_MS, TYPING_TTL_MS } from './inbox-types';

describe('the inbox’s typing timings', () => {
  it('are the contracts’ own', () => {
    expect(TYPING_TTL_MS).toBe(CONTRACT_TTL);
    expect(TYPING_EVERY_MS).toBe(TYPING_MIN_INTERVAL_MS);
  });
});
