import { SignJWT } from 'jose';

/** The longest a user token may live: the server refuses an `exp` further ahead. */
export const MAX_USER_TOKEN_SECONDS = 24 * 60 * 60;

export interface UserTokenClaims {
  /** Your app's id of the user, 1 to 100 characters: the customer's `appUserId`. */
  sub: string;
  name?: string;
  email?: string;
  avatarUrl?: string;
  /** Seconds, or a duration such as `'30m'`, `'1h'`, `'1d'` (`s`, `m`, `h`, `d`); at most 24 h, default 1 h. */
  expiresIn?: number | string;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

const durationSeconds = (value: number | string): number => {
  if (typeof value === 'number') return value;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(value);
  if (!match) throw new RangeError(`expiresIn: "${value}" is not a duration such as 30m, 1h or 1d`);
  return Number(match[1]) * (UNIT_SECONDS[match[2] as string] as number);
};

/**
 * Signs a user token for identity verification: a JWT (HS256) with the project's identity secret,
 * made on your backend and handed to the widget, which sends it as `userToken` to
 * `POST /v2/identity/init`. The visitor is then the identified customer `sub`.
 */
export const signUserToken = async (secret: string | Uint8Array, claims: UserTokenClaims): Promise<string> => {
  const { sub, name, email, avatarUrl, expiresIn = '1h' } = claims;
  if (typeof sub !== 'string' || sub.length < 1 || sub.length > 100) throw new RangeError('sub: 1 to 100 characters');
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (key.length === 0) throw new RangeError('secret: empty');
  const seconds = Math.floor(durationSeconds(expiresIn));
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_USER_TOKEN_SECONDS) {
    throw new RangeError(`expiresIn: 1 second to 24 hours (got ${String(expiresIn)})`);
  }
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, string> = {};
  if (name !== undefined) payload.name = name;
  if (email !== undefined) payload.email = email;
  if (avatarUrl !== undefined) payload.avatarUrl = avatarUrl;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(key);
};
