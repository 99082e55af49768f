import { BASE62_LENGTH_OF_32_BYTES, toBase62 } from './base62';

export const IDENTITY_SECRET_PREFIX = 'idv_';
export const IDENTITY_SECRET_RANDOM_BYTES = 32;

/** After a rotation the replaced secret still verifies tokens this long: the site's backends switch over meanwhile. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * The project's identity secret: the HMAC key of its user tokens. Kept in the clear at rest (an
 * HS256 signature can only be checked with the key itself), answered only when it is made.
 */
export interface IdentitySecrets {
  current: { secret: string; createdAt: string };
  previous: { secret: string; validUntil: string } | null;
}

/** The secret shown once: a prefix and 32 random bytes in base62 (used as the UTF-8 bytes of the string). */
export const formatIdentitySecret = (randomBytes: Uint8Array): string => {
  if (randomBytes.length !== IDENTITY_SECRET_RANDOM_BYTES)
    throw new Error(`a secret is made of ${IDENTITY_SECRET_RANDOM_BYTES} random bytes`);
  return IDENTITY_SECRET_PREFIX + toBase62(randomBytes, BASE62_LENGTH_OF_32_BYTES);
};

/** The secrets after a rotation at `now`: the new one current, the one it replaces valid for the grace period. */
export const rotatedSecrets = (existing: IdentitySecrets | null, secret: string, now: Date): IdentitySecrets => ({
  current: { secret, createdAt: now.toISOString() },
  previous: existing
    ? { secret: existing.current.secret, validUntil: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS).toISOString() }
    : null,
});

/** The secrets a token may be signed with at `now`, the current one first. */
export const verifyingSecrets = (secrets: IdentitySecrets | null, now: Date): string[] => {
  if (!secrets) return [];
  const live = [secrets.current.secret];
  if (secrets.previous && Date.parse(secrets.previous.validUntil) > now.getTime()) live.push(secrets.previous.secret);
  return live;
};
