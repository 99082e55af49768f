import { Inject, Injectable } from '@nestjs/common';
import { AppError, type SessionInfo } from '@palaver/contracts';
import type { StoredSession } from '../domain/session';
import type { LiveSession } from '../repositories/idle-session.store';
import { SessionStore } from '../repositories/session.store';
import { VisitorRepository } from '../repositories/visitor.repository';
import { KeyService } from './key.service';

const invalidSession = (): AppError => new AppError('UNAUTHORIZED', 'session token is invalid or has expired');

/** Visitors' opaque `st_` session tokens, with an idle timeout (see IdleSessionStore). */
@Injectable()
export class SessionService {
  constructor(
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(KeyService) private readonly keys: KeyService,
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
  ) {}

  issue(info: SessionInfo): Promise<string> {
    return this.sessions.open(info);
  }

  /**
   * The session behind a token, its idle timeout extended when a tenth of it has passed (not on
   * every use: see EXTEND_AFTER_FRACTION). Its key is re-checked every time: revocation is immediate.
   */
  async resolve(token: string, origin: string | null): Promise<SessionInfo> {
    const session = await this.live(token);
    try {
      await this.assertStillValid(session.stored, origin);
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAUTHORIZED') await this.sessions.remove(session);
      throw err;
    }
    const { projectId, visitorId, keyId, assistantId } = session.stored;
    await this.sessions.extendIfDue(session);
    return { projectId, visitorId, keyId, assistantId };
  }

  /**
   * How long until the session lapses unless used, without extending it: a live stream asks this
   * to end when the session does, and holding a stream open is not a use.
   */
  async expiry(token: string): Promise<{ expiresInMs: number }> {
    const session = await this.live(token);
    await this.assertStillValid(session.stored, null);
    return { expiresInMs: session.stored.expiresAt - session.nowMs };
  }

  private async live(token: string): Promise<LiveSession<SessionInfo>> {
    const session = await this.sessions.find(token);
    if (!session) throw invalidSession();
    return session;
  }

  /**
   * Its key still live and admitting the origin, its visitor not erased: an erased visitor's
   * sessions stop at once (there is no index of sessions by visitor to delete them by).
   */
  private async assertStillValid(session: StoredSession, origin: string | null): Promise<void> {
    await this.keys.assertSessionKey(session.projectId, session.keyId, origin);
    if (!(await this.visitors.findById(session.projectId, session.visitorId))) throw invalidSession();
  }
}
