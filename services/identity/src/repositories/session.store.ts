import { Injectable } from '@nestjs/common';
import type { SessionInfo } from '@palaver/contracts';
import { SESSION_PREFIX } from '../domain/prefixed-token';
import { StoredSession } from '../domain/session';
import { IdleSessionStore, type SessionKind } from './idle-session.store';

/** Visitors' sessions (`POST /v2/identity/init`). */
@Injectable()
export class SessionStore extends IdleSessionStore<SessionInfo> {
  protected readonly kind: SessionKind<SessionInfo> = {
    kvPrefix: 'identity:session',
    tokenPrefix: SESSION_PREFIX,
    schema: StoredSession,
    idleTtlSetting: 'SESSION_IDLE_TTL_SECONDS',
  };
}
