import { createHmac } from 'node:crypto';

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A user token as a site's backend signs it (an HS256 JWT), built with node:crypto rather than
 * the library Palaver verifies with, so the tests also show the format is the standard one.
 * `alg` other than HS256 gives a token with that header and no signature (to test `none`).
 */
export const signUserToken = (claims: Record<string, unknown>, secret: string, alg = 'HS256'): string => {
  const signingInput = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  if (alg !== 'HS256') return `${signingInput}.`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
};

/** Seconds since the epoch, `offsetSeconds` from `now`. */
export const epochSeconds = (offsetSeconds = 0, now = Date.now()): number => Math.floor(now / 1000) + offsetSeconds;
