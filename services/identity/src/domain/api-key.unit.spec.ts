import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKey, KEY_RANDOM_BYTES, keyHint, parseKeyType } from './api-key';
import { randomBase62, toBase62 } from './base62';
import { isPrefixedToken, newPrefixedToken, SESSION_PREFIX } from './prefixed-token';
import { hashSecret } from './secret-hash';

describe('API key format', () => {
  it('prefixes the type and encodes 32 random bytes in fixed-width base62', () => {
    expect(formatKey('publishable', new Uint8Array(KEY_RANDOM_BYTES))).toBe(`pk_${'0'.repeat(43)}`);
    const ones = new Uint8Array(KEY_RANDOM_BYTES);
    ones[31] = 61;
    expect(formatKey('publishable', ones)).toBe(`pk_${'0'.repeat(42)}z`);
    const max = formatKey('private', new Uint8Array(KEY_RANDOM_BYTES).fill(255));
    expect(max).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    expect(formatKey('private', randomBytes(32))).toMatch(/^sk_[0-9A-Za-z]{43}$/);
  });

  it('encodes base62 as a number', () => {
    expect(toBase62(Uint8Array.of(1, 0), 3)).toBe('048');
    expect(() => toBase62(Uint8Array.of(255, 255), 2)).toThrow();
    const asBigInt = (bytes: Uint8Array): string => {
      let value = 0n;
      for (const byte of bytes) value = (value << 8n) | BigInt(byte);
      let out = '';
      for (; value > 0n; value /= 62n) out = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[Number(value % 62n)] + out;
      return out.padStart(43, '0');
    };
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 32 }), (bytes) => {
        expect(toBase62(bytes, 43)).toBe(asBigInt(bytes));
      }),
    );
    expect(toBase62(new Uint8Array(32).fill(255), 43)).toBe(asBigInt(new Uint8Array(32).fill(255)));
  });

  it('refuses anything but 32 random bytes', () => {
    expect(() => formatKey('private', new Uint8Array(16))).toThrow();
  });

  it('parses the type of well-formed keys only', () => {
    expect(parseKeyType(formatKey('publishable', randomBytes(32)))).toBe('publishable');
    expect(parseKeyType(formatKey('private', randomBytes(32)))).toBe('private');
    expect(parseKeyType('pk_short')).toBeNull();
    expect(parseKeyType(`xx_${'a'.repeat(43)}`)).toBeNull();
    expect(parseKeyType(`pk_${'a'.repeat(42)}-`)).toBeNull();
    expect(parseKeyType(`pk_${'a'.repeat(44)}`)).toBeNull();
    expect(parseKeyType('')).toBeNull();
  });

  it('hints with the last four characters', () => {
    expect(keyHint('pk_abcdefWXYZ')).toBe('WXYZ');
  });

  it('differs on every draw', () => {
    const keys = new Set(Array.from({ length: 100 }, () => formatKey('private', randomBytes(32))));
    expect(keys.size).toBe(100);
  });
});

describe('session token format', () => {
  it('is st_ and 43 base62 characters', () => {
    const token = newPrefixedToken(SESSION_PREFIX, randomBytes);
    expect(token).toMatch(/^st_[0-9A-Za-z]{43}$/);
    expect(isPrefixedToken(SESSION_PREFIX, token)).toBe(true);
    expect(isPrefixedToken(SESSION_PREFIX, `pk_${token.slice(3)}`)).toBe(false);
    expect(isPrefixedToken(SESSION_PREFIX, 'st_x')).toBe(false);
  });
});

describe('randomBase62', () => {
  const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

  it('takes one character per byte below 248 and skips the others, drawing again when short', () => {
    const bytes = [0, 61, 62, 247, 248, 255, 123, 200];
    let at = 0;
    const draw = (size: number) => Uint8Array.from({ length: size }, () => bytes[at++ % bytes.length]!);
    // 0 -> '0', 61 -> 'z', 62 -> '0', 247 -> 247 % 62 = 61 -> 'z', 248 and 255 skipped, 123 -> 61 -> 'z', 200 -> 14 -> 'E'
    expect(randomBase62(6, draw)).toBe('0z0zzE');
    expect(randomBase62(12, () => Uint8Array.of(255, 7))).toBe('777777777777');
  });

  it('spreads characters evenly over the alphabet', () => {
    const counts = new Map<string, number>();
    const samples = 62 * 1_000;
    for (const char of randomBase62(samples, randomBytes)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    // Chi-square with 61 degrees of freedom: above 110 happens by chance about once in 10,000 runs.
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - 1_000) ** 2 / 1_000, 0);
    expect(chiSquare).toBeLessThan(110);
  });
});

describe('hashSecret', () => {
  it('is the hex SHA-256', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
