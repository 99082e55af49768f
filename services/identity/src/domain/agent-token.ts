import { AGENT_TOKEN_PREFIX } from '@palaver/contracts';
import { BASE62_LENGTH_OF_32_BYTES, toBase62 } from './base62';

export const AGENT_TOKEN_RANDOM_BYTES = 32;
const TOKEN_PATTERN = new RegExp(`^${AGENT_TOKEN_PREFIX}[0-9A-Za-z]{${BASE62_LENGTH_OF_32_BYTES}}$`);

/** The token shown once when an agent is added: `ak_` and 32 random bytes in base62. */
export const formatAgentToken = (randomBytes: Uint8Array): string => {
  if (randomBytes.length !== AGENT_TOKEN_RANDOM_BYTES) throw new Error(`a token is made of ${AGENT_TOKEN_RANDOM_BYTES} random bytes`);
  return AGENT_TOKEN_PREFIX + toBase62(randomBytes, BASE62_LENGTH_OF_32_BYTES);
};

/** A malformed token is never looked up. */
export const isAgentToken = (token: string): boolean => TOKEN_PATTERN.test(token);
