import { SessionInfo } from '@palaver/contracts';
import { z } from 'zod';

/** When a session (a visitor's or a user's) lapses if unused (epoch ms), kept alongside what it holds. */
export type Expiring = { expiresAt: number };

/** A visitor's session as kept in the key-value store: who it is for, and when it lapses if unused. */
export const StoredSession = SessionInfo.extend({ expiresAt: z.number().int() });
export type StoredSession = z.infer<typeof StoredSession>;

/** The session with its idle timeout restarted at `nowMs` (an expiry it had is replaced). */
export const withIdleExpiry = <T extends object>(session: T, nowMs: number, idleTtlSeconds: number): T & Expiring => ({
  ...session,
  expiresAt: nowMs + idleTtlSeconds * 1000,
});

/** Whether a session has lapsed. */
export const isLapsed = (session: Expiring, nowMs: number): boolean => nowMs >= session.expiresAt;

/**
 * A use extends the session only once this fraction of its idle TTL has passed since it was last
 * extended, so a busy session costs one write per tenth of its TTL instead of one per request
 * (the idle timeout is then honoured to within a tenth of the TTL).
 */
export const EXTEND_AFTER_FRACTION = 0.1;

export const isDueForExtension = (session: Expiring, nowMs: number, idleTtlSeconds: number): boolean =>
  session.expiresAt - nowMs <= idleTtlSeconds * 1000 * (1 - EXTEND_AFTER_FRACTION);
