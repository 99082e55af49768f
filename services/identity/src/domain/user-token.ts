import { AppError, AppUserId, MAX_URL } from '@palaver/contracts';
import { errors, jwtVerify } from 'jose';
import { z } from 'zod';

/** The longest a token may live: a leaked token is worth little, and the site signs a new one per page load. */
export const MAX_USER_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
/** Allowed difference between the site's clock and ours, on `exp` both ways. */
export const CLOCK_SKEW_SECONDS = 60;

/** The claims Palaver reads; `sub` is the app user id (surface B's appUserId). */
const UserClaims = z.object({
  sub: AppUserId,
  exp: z.number(),
  iat: z.number().optional(),
  name: z.string().max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  avatarUrl: z.url().max(MAX_URL).nullable().optional(),
});
export type UserClaims = z.infer<typeof UserClaims>;

export const invalidUserToken = (reason: string): AppError =>
  new AppError('INVALID_USER_TOKEN', `the user token is invalid: ${reason}`, { reason });

const encoder = new TextEncoder();

/**
 * The claims of a user token signed (HS256) with one of `secrets` (the current one first, then
 * one still valid after a rotation), read at `now`. INVALID_USER_TOKEN for anything else: a bad
 * signature, another algorithm (`none` included), an expired token, one that lives longer than
 * MAX_USER_TOKEN_LIFETIME_SECONDS, a missing or malformed claim. jose checks the JWS and the
 * time claims; the bounds of Palaver's claims are checked here.
 */
export const verifyUserToken = async (token: string, secrets: readonly string[], now: Date): Promise<UserClaims> => {
  if (secrets.length === 0) throw invalidUserToken('the project has no identity secret');
  let payload: unknown = null;
  for (const secret of secrets) {
    try {
      ({ payload } = await jwtVerify(token, encoder.encode(secret), {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp'],
        currentDate: now,
        clockTolerance: CLOCK_SKEW_SECONDS,
      }));
      break;
    } catch (err) {
      // Only a signature that fails is worth trying with the next secret; any other failure is the token's.
      if (err instanceof errors.JWSSignatureVerificationFailed) continue;
      throw invalidUserToken(reasonOf(err));
    }
  }
  if (payload === null) throw invalidUserToken('the signature does not match the identity secret');
  const claims = UserClaims.safeParse(payload);
  if (!claims.success) {
    const issue = claims.error.issues[0];
    throw invalidUserToken(`claim ${issue?.path.join('.') || '?'}: ${issue?.message ?? 'invalid'}`);
  }
  const latestExp = now.getTime() / 1000 + MAX_USER_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS;
  if (claims.data.exp > latestExp) throw invalidUserToken('exp is more than 24 hours ahead');
  return claims.data;
};

const reasonOf = (err: unknown): string => {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `claim ${err.claim}: ${err.reason}`;
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) return 'the algorithm must be HS256';
  if (err instanceof errors.JOSEError) return 'not a well-formed JWT';
  throw err;
};
