import { BASE62_LENGTH_OF_32_BYTES, toBase62 } from './base62';

export const SESSION_TOKEN_PREFIX = 'st_';
export const SESSION_TOKEN_RANDOM_BYTES = 32;
const TOKEN_PATTERN = new RegExp(`^st_[0-9A-Za-z]{${BASE62_LENGTH_OF_32_BYTES}}$`);

export const formatSessionToken = (randomBytes: Uint8Array): string => {
  if (randomBytes.length !== SESSION_TOKEN_RANDOM_BYTES) {
    throw new Error(`a session token is made of ${SESSION_TOKEN_RANDOM_BYTES} random bytes`);
  }
  return SESSION_TOKEN_PREFIX + toBase62(randomBytes, BASE62_LENGTH_OF_32_BYTES);
};

export const isWellFormedSessionToken = (token: string): boolean => TOKEN_PATTERN.test(token);
