import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { MAX_USER_TOKEN_SECONDS, signUserToken } from './user-token';

const secret = 'ids_test-secret-of-the-project';
const key = new TextEncoder().encode(secret);

describe('signUserToken', () => {
  it('signs an HS256 JWT with sub, the profile claims, iat and exp one hour ahead by default', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await signUserToken(secret, {
      sub: 'user-42',
      name: 'Ann',
      email: 'ann@example.com',
      avatarUrl: 'https://cdn.example/ann.png',
    });
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: 'user-42', name: 'Ann', email: 'ann@example.com', avatarUrl: 'https://cdn.example/ann.png' });
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
  });

  it('leaves out the profile claims not given', async () => {
    const { payload } = await jwtVerify(await signUserToken(secret, { sub: 'u' }), key);
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'sub']);
  });

  it('takes expiresIn as seconds or a duration, up to 24 hours', async () => {
    for (const [expiresIn, seconds] of [
      [90, 90],
      ['30m', 1800],
      ['24h', MAX_USER_TOKEN_SECONDS],
      ['1d', MAX_USER_TOKEN_SECONDS],
    ] as const) {
      const { payload } = await jwtVerify(await signUserToken(secret, { sub: 'u', expiresIn }), key);
      expect((payload.exp as number) - (payload.iat as number)).toBe(seconds);
    }
  });

  it('refuses a lifetime over 24 hours, a zero or unreadable one, and a bad sub', async () => {
    await expect(signUserToken(secret, { sub: 'u', expiresIn: '25h' })).rejects.toThrow(/24 hours/);
    await expect(signUserToken(secret, { sub: 'u', expiresIn: MAX_USER_TOKEN_SECONDS + 1 })).rejects.toThrow(RangeError);
    await expect(signUserToken(secret, { sub: 'u', expiresIn: 0 })).rejects.toThrow(RangeError);
    await expect(signUserToken(secret, { sub: 'u', expiresIn: 'soon' })).rejects.toThrow(/duration/);
    await expect(signUserToken(secret, { sub: '' })).rejects.toThrow(/sub/);
    await expect(signUserToken(secret, { sub: 'x'.repeat(101) })).rejects.toThrow(/sub/);
    await expect(signUserToken('', { sub: 'u' })).rejects.toThrow(/secret/);
  });

  it('is refused by a verifier holding another secret', async () => {
    const token = await signUserToken(secret, { sub: 'u' });
    await expect(jwtVerify(token, new TextEncoder().encode('another-secret'))).rejects.toThrow();
  });
});
