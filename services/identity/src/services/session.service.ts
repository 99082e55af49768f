import { Inject, Injectable } from '@nestjs/common';
import { AppError, type SessionInfo } from '@palaver/contracts';
import { type Clock, type Config, Ports } from '@palaver/platform';
import { hashSecret } from '../domain/secret-hash';
import { isDueForExtension, isLapsed, withIdleExpiry } from '../domain/session';
import { isWellFormedSessionToken, newSessionToken } from '../domain/session-token';
import { SessionStore } from '../repositories/session.store';
import { VisitorRepository } from '../repositories/visitor.repository';
import { KeyService } from './key.service';
import { secureRandomBytes } from './random-bytes';

const invalidSession = (): AppError => new AppError('UNAUTHORIZED', 'session token is invalid or has expired');

/**
 * Opaque session tokens with an idle timeout. The store's TTL drops idle sessions; the expiry kept
 * in the value is read against the Clock port, so the service's notion of time decides.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(KeyService) private readonly keys: KeyService,
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Pick<Config, 'SESSION_IDLE_TTL_SECONDS'>,
  ) {}

  async issue(info: SessionInfo): Promise<string> {
    const token = newSessionToken(secureRandomBytes);
    await this.store(hashSecret(token), info);
    return token;
  }

  /**
   * The session behind a token, its idle timeout extended when a tenth of it has passed (not on
   * every use: see EXTEND_AFTER_FRACTION). Its key is re-checked every time: revocation is immediate.
   */
  async resolve(token: string, origin: string | null): Promise<SessionInfo> {
    if (!isWellFormedSessionToken(token)) throw invalidSession();
    const tokenHash = hashSecret(token);
    const session = await this.sessions.load(tokenHash);
    const now = this.clock.now().getTime();
    if (!session || isLapsed(session, now)) throw invalidSession();
    try {
      await this.keys.assertSessionKey(session.projectId, session.keyId, origin);
      await this.assertVisitor(session.projectId, session.visitorId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAUTHORIZED') await this.sessions.remove(tokenHash);
      throw err;
    }
    const info: SessionInfo = {
      projectId: session.projectId,
      visitorId: session.visitorId,
      keyId: session.keyId,
      assistantId: session.assistantId,
    };
    if (isDueForExtension(session, now, this.config.SESSION_IDLE_TTL_SECONDS)) await this.store(tokenHash, info);
    return info;
  }

  /**
   * How long until the session lapses unless used, without extending it: a live stream asks this
   * to end when the session does, and holding a stream open is not a use.
   */
  async expiry(token: string): Promise<{ expiresInMs: number }> {
    if (!isWellFormedSessionToken(token)) throw invalidSession();
    const session = await this.sessions.load(hashSecret(token));
    const now = this.clock.now().getTime();
    if (!session || isLapsed(session, now)) throw invalidSession();
    await this.keys.assertSessionKey(session.projectId, session.keyId, null);
    await this.assertVisitor(session.projectId, session.visitorId);
    return { expiresInMs: session.expiresAt - now };
  }

  /** An erased visitor's sessions stop at once (there is no index of sessions by visitor to delete them by). */
  private async assertVisitor(projectId: string, visitorId: string): Promise<void> {
    if (!(await this.visitors.findById(projectId, visitorId))) throw invalidSession();
  }

  private async store(tokenHash: string, info: SessionInfo): Promise<void> {
    const ttl = this.config.SESSION_IDLE_TTL_SECONDS;
    await this.sessions.save(tokenHash, withIdleExpiry(info, this.clock.now().getTime(), ttl), ttl);
  }
}
