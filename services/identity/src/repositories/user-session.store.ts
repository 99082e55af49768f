import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { USER_SESSION_PREFIX } from '../domain/prefixed-token';
import { IdleSessionStore, type SessionKind } from './idle-session.store';

/** A dashboard user's session: whose, and when it lapses unless used (epoch ms). */
export const StoredUserSession = z.object({ userId: z.string(), expiresAt: z.number().int() });
export type StoredUserSession = z.infer<typeof StoredUserSession>;

/** Dashboard users' sessions (the cookie's token). */
@Injectable()
export class UserSessionStore extends IdleSessionStore<{ userId: string }> {
  protected readonly kind: SessionKind<{ userId: string }> = {
    kvPrefix: 'identity:user-session',
    tokenPrefix: USER_SESSION_PREFIX,
    schema: StoredUserSession,
    idleTtlSetting: 'USER_SESSION_IDLE_TTL_SECONDS',
  };
}
