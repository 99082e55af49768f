import { AppError } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { assertAcceptablePassword } from './password-policy';
import { isPrefixedToken, newPrefixedToken } from './prefixed-token';

const refusal = (password: string, email = 'ada@example.com'): string | null => {
  try {
    assertAcceptablePassword(password, email);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).message;
  }
};

describe('password policy', () => {
  it('accepts a long uncommon password', () => {
    expect(refusal('violet-kettle-92-harbour')).toBeNull();
  });

  it('refuses short, common, repetitive and email-derived passwords', () => {
    expect(refusal('short-pass1')).toMatch(/at least 12/);
    expect(refusal('Password1234')).toMatch(/too common/);
    expect(refusal('abababababab')).toMatch(/too common/);
    expect(refusal('ada.lovelace-1815', 'ada.lovelace@example.com')).toMatch(/email/);
  });
});

describe('prefixed tokens', () => {
  it('are the prefix and 43 base62 characters, and nothing else is taken for one', () => {
    const token = newPrefixedToken('us_', (n) => new Uint8Array(n).fill(7));
    expect(token).toMatch(/^us_[0-9A-Za-z]{43}$/);
    expect(isPrefixedToken('us_', token)).toBe(true);
    expect(isPrefixedToken('pat_', token)).toBe(false);
    expect(isPrefixedToken('us_', `${token}x`)).toBe(false);
    expect(isPrefixedToken('us_', `us_${'-'.repeat(43)}`)).toBe(false);
  });
});
