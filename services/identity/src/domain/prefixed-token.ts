import { BASE62_LENGTH_OF_32_BYTES, randomBase62 } from './base62';

/** Opaque tokens: a prefix and 43 random base62 characters (256 bits), `draw(n)` giving n random bytes. */
export const SESSION_PREFIX = 'st_';
export const USER_SESSION_PREFIX = 'us_';
export const INVITATION_PREFIX = 'inv_';

export const newPrefixedToken = (prefix: string, draw: (size: number) => Uint8Array): string =>
  prefix + randomBase62(BASE62_LENGTH_OF_32_BYTES, draw);

/** A malformed token is never looked up. */
export const isPrefixedToken = (prefix: string, token: string): boolean =>
  token.length === prefix.length + BASE62_LENGTH_OF_32_BYTES &&
  token.startsWith(prefix) &&
  /^[0-9A-Za-z]+$/.test(token.slice(prefix.length));
