import type { KeyType } from '@palaver/contracts';
import { BASE62_LENGTH_OF_32_BYTES, toBase62 } from './base62';

export const KEY_PREFIX: Record<KeyType, string> = { publishable: 'pk_', private: 'sk_' };

export const KEY_RANDOM_BYTES = 32;
const KEY_PATTERN = new RegExp(`^(pk|sk)_[0-9A-Za-z]{${BASE62_LENGTH_OF_32_BYTES}}$`);

/** The key shown once at creation: its type's prefix and 32 random bytes in base62. */
export const formatKey = (type: KeyType, randomBytes: Uint8Array): string => {
  if (randomBytes.length !== KEY_RANDOM_BYTES) throw new Error(`a key is made of ${KEY_RANDOM_BYTES} random bytes`);
  return KEY_PREFIX[type] + toBase62(randomBytes, BASE62_LENGTH_OF_32_BYTES);
};

/** The key's type when it is well-formed, else null (a malformed key is never looked up). */
export const parseKeyType = (key: string): KeyType | null => {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  return match[1] === 'pk' ? 'publishable' : 'private';
};

/** What a listing shows of a key: its last four characters. */
export const keyHint = (key: string): string => key.slice(-4);
