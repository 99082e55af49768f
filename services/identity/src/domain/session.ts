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

export const isLapsed = (session: StoredSession, nowMs: number): boolean => nowMs >= session.expiresAt;
