import { BASE62_LENGTH_OF_32_BYTES, randomBase62 } from './base62';

export const SESSION_TOKEN_PREFIX = 'st_';
const TOKEN_PATTERN = new RegExp(`^st_[0-9A-Za-z]{${BASE62_LENGTH_OF_32_BYTES}}$`);

/** A new token: the prefix and 43 random base62 characters (256 bits), `draw(n)` giving n random bytes. */
export const newSessionToken = (draw: (size: number) => Uint8Array): string =>
  SESSION_TOKEN_PREFIX + randomBase62(BASE62_LENGTH_OF_32_BYTES, draw);

export const isWellFormedSessionToken = (token: string): boolean => TOKEN_PATTERN.test(token);
