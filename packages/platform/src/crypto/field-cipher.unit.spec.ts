import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSealed, openField, SEALED_PREFIX, SealedValueError, sealField } from './field-cipher';

describe('field cipher (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('seals any JSON value and opens it again', () => {
    for (const value of ['hello MARKER-42', '', null, { url: 'https://x.test/?email=a@b.c', title: 'T' }, [1, 'two'], 3.5, true]) {
      const sealed = sealField(key, value, 'k|UserMessagePosted|content');
      expect(isSealed(sealed)).toBe(true);
      expect(openField(key, sealed, 'k|UserMessagePosted|content')).toEqual(value);
    }
  });

  it('leaves no clear text in the sealed value, and seals the same value differently each time', () => {
    const a = sealField(key, 'secret MARKER-42', 'c');
    const b = sealField(key, 'secret MARKER-42', 'c');
    expect(a).not.toContain('MARKER');
    expect(Buffer.from(a.slice(SEALED_PREFIX.length), 'base64').toString('latin1')).not.toContain('MARKER');
    expect(a).not.toBe(b);
  });

  it('refuses another key, another context, or altered bytes', () => {
    const sealed = sealField(key, 'text', 'c1');
    expect(() => openField(randomBytes(32), sealed, 'c1')).toThrow(SealedValueError);
    expect(() => openField(key, sealed, 'c2')).toThrow(SealedValueError);
    const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => openField(key, SEALED_PREFIX + bytes.toString('base64'), 'c1')).toThrow(SealedValueError);
    expect(() => openField(key, `${SEALED_PREFIX}AAAA`, 'c1')).toThrow(SealedValueError);
    expect(() => openField(key, 'plain', 'c1')).toThrow(SealedValueError);
  });

  it('refuses a key that is not 256 bits', () => {
    expect(() => sealField(randomBytes(16), 'x', 'c')).toThrow(/32 bytes/);
  });

  it('tells sealed values from others', () => {
    expect(isSealed('plain text')).toBe(false);
    expect(isSealed(null)).toBe(false);
    expect(isSealed({ a: 1 })).toBe(false);
  });
});
