import * as contracts from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { TYPING_MIN_INTERVAL_MS, TYPING_TTL_MS } from './typing';

describe('the SDK typing timings', () => {
  it('are the contract’s', () => {
    expect({ TYPING_TTL_MS, TYPING_MIN_INTERVAL_MS }).toEqual({
      TYPING_TTL_MS: contracts.TYPING_TTL_MS,
      TYPING_MIN_INTERVAL_MS: contracts.TYPING_MIN_INTERVAL_MS,
    });
  });
});
