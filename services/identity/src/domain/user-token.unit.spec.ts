import { createHmac } from 'node:crypto';
import { AppError } from '@palaver/contracts';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyUserToken } from './user-token';

const SECRET = 'idv_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const OTHER = 'idv_GFEDCBAzyxwvutsrqponmlkjihgfedcba9876543210';
const now = new Date('2026-03-01T12:00:00.000Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A token as the documented backend example signs it (jose's SignJWT). */
const sign = (claims: Record<string, unknown>, options: { secret?: string; expiresIn?: number | null } = {}) => {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(seconds(now));
  if (options.expiresIn !== null) jwt.setExpirationTime(seconds(now) + (options.expiresIn ?? 3600));
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const caught = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(caught instanceof AppError)) throw new Error(`expected an AppError, got ${String(caught)}`);
  expect(caught.code).toBe('INVALID_USER_TOKEN');
  return caught;
};

describe('verifyUserToken', () => {
  it('answers the claims of a token signed with the secret', async () => {
    const token = await sign({ sub: 'user-42', name: 'Ann', email: 'ann@example.com', avatarUrl: 'https://example.com/ann.png' });
    expect(await verifyUserToken(token, [SECRET], now)).toMatchObject({
      sub: 'user-42',
      name: 'Ann',
      email: 'ann@example.com',
      avatarUrl: 'https://example.com/ann.png',
      exp: seconds(now) + 3600,
    });
  });

  it("accepts the token of docs/widget.md's backend example", async () => {
    const secret = new TextEncoder().encode(SECRET);
    const user = { id: 42, name: 'Ann', email: 'ann@example.com' };
    const token = await new SignJWT({ name: user.name, email: user.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expect(await verifyUserToken(token, [SECRET], new Date())).toMatchObject({ sub: '42', name: 'Ann', email: 'ann@example.com' });
  });

  it('accepts a token signed with a later secret in the list (the previous one after a rotation)', async () => {
    const token = await sign({ sub: 'user-42' }, { secret: OTHER });
    expect((await verifyUserToken(token, [SECRET, OTHER], now)).sub).toBe('user-42');
  });

  it('refuses a token signed with another secret, or when the project has none', async () => {
    const token = await sign({ sub: 'user-42' }, { secret: OTHER });
    expect((await failure(verifyUserToken(token, [SECRET], now))).details).toEqual({ reason: expect.stringContaining('signature') });
    await failure(verifyUserToken(token, [], now));
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await sign({ sub: 'user-1' })).split('.');
    await failure(verifyUserToken(`${header}.${b64({ sub: 'user-42', exp: seconds(now) + 60 })}.${signature}`, [SECRET], now));
  });

  it('refuses alg none, and another HMAC algorithm keyed with the same secret', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'user-42', exp: seconds(now) + 60 })}.`;
    expect((await failure(verifyUserToken(unsigned, [SECRET], now))).details).toEqual({ reason: 'the algorithm must be HS256' });
    const header = b64({ alg: 'HS512', typ: 'JWT' });
    const payload = b64({ sub: 'user-42', exp: seconds(now) + 60 });
    const hs512 = createHmac('sha512', SECRET).update(`${header}.${payload}`).digest('base64url');
    await failure(verifyUserToken(`${header}.${payload}.${hs512}`, [SECRET], now));
  });

  it('refuses an expired token, and one that lives more than 24 hours', async () => {
    expect((await failure(verifyUserToken(await sign({ sub: 'u' }, { expiresIn: -600 }), [SECRET], now))).details).toEqual({
      reason: 'the token has expired',
    });
    await failure(verifyUserToken(await sign({ sub: 'u' }, { expiresIn: 25 * 3600 }), [SECRET], now));
    expect((await verifyUserToken(await sign({ sub: 'u' }, { expiresIn: 24 * 3600 }), [SECRET], now)).sub).toBe('u');
  });

  it('refuses a token without sub or exp, or with claims out of bounds', async () => {
    await failure(verifyUserToken(await sign({ name: 'Ann' }), [SECRET], now));
    await failure(verifyUserToken(await sign({ sub: 'u' }, { expiresIn: null }), [SECRET], now));
    await failure(verifyUserToken(await sign({ sub: '' }), [SECRET], now));
    await failure(verifyUserToken(await sign({ sub: 'x'.repeat(101) }), [SECRET], now));
    await failure(verifyUserToken(await sign({ sub: 42 }), [SECRET], now));
    await failure(verifyUserToken(await sign({ sub: 'u', email: 'not an email' }), [SECRET], now));
  });

  it('refuses what is not a JWT', async () => {
    for (const token of ['', 'abc', 'a.b.c', `${b64({ alg: 'HS256' })}.not-json.sig`]) await failure(verifyUserToken(token, [SECRET], now));
  });
});
