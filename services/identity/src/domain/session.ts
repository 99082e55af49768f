import { SessionInfo } from '@palaver/contracts';
import { z } from 'zod';

/** A session as kept in the key-value store: who it is for, and when it lapses if unused (epoch ms). */
export const StoredSession = SessionInfo.extend({ expiresAt: z.number().int() });
export type StoredSession = z.infer<typeof StoredSession>;

export const withIdleExpiry = (info: SessionInfo, nowMs: number, idleTtlSeconds: number): StoredSession => ({
  projectId: info.projectId,
  visitorId: info.visitorId,
  keyId: info.keyId,
  assistantId: info.assistantId,
  expiresAt: nowMs + idleTtlSeconds * 1000,
});

/** Whether a session (a visitor's or a user's) has lapsed. */
export const isLapsed = (session: { expiresAt: number }, nowMs: number): boolean => nowMs >= session.expiresAt;

/**
 * A use extends the session only once this fraction of its idle TTL has passed since it was last
 * extended, so a busy session costs one write per tenth of its TTL instead of one per request
 * (the idle timeout is then honoured to within a tenth of the TTL).
 */
export const EXTEND_AFTER_FRACTION = 0.1;

export const isDueForExtension = (session: { expiresAt: number }, nowMs: number, idleTtlSeconds: number): boolean =>
  session.expiresAt - nowMs <= idleTtlSeconds * 1000 * (1 - EXTEND_AFTER_FRACTION);
