import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Principal, type UserRecord, type UserSession } from '@palaver/contracts';
import { type Clock, type Config, Ports } from '@palaver/platform';
import { isPrefixedToken, newPrefixedToken, USER_SESSION_PREFIX } from '../domain/prefixed-token';
import { hashSecret } from '../domain/secret-hash';
import { isDueForExtension, isLapsed } from '../domain/session';
import { MembershipRepository } from '../repositories/membership.repository';
import { UserRepository } from '../repositories/user.repository';
import { UserSessionStore } from '../repositories/user-session.store';
import { secureRandomBytes } from './random-bytes';

const invalidSession = (): AppError => new AppError('UNAUTHORIZED', 'not signed in, or the session has expired');

/**
 * Dashboard sessions: opaque `us_` tokens (the cookie's value) kept hashed in the key-value store
 * with a sliding idle expiry. The user and their roles are read on every resolve, so a deleted
 * user or a removed membership takes effect at the next request.
 */
@Injectable()
export class UserSessionService {
  constructor(
    @Inject(UserSessionStore) private readonly sessions: UserSessionStore,
    @Inject(UserRepository) private readonly users: UserRepository,
    @Inject(MembershipRepository) private readonly memberships: MembershipRepository,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Pick<Config, 'USER_SESSION_IDLE_TTL_SECONDS'>,
  ) {}

  async issue(userId: string): Promise<UserSession> {
    const token = newPrefixedToken(USER_SESSION_PREFIX, secureRandomBytes);
    await this.store(hashSecret(token), userId);
    return { token, idleSeconds: this.config.USER_SESSION_IDLE_TTL_SECONDS };
  }

  async resolve(token: string): Promise<Principal> {
    if (!isPrefixedToken(USER_SESSION_PREFIX, token)) throw invalidSession();
    const tokenHash = hashSecret(token);
    const session = await this.sessions.load(tokenHash);
    const now = this.clock.now().getTime();
    if (!session || isLapsed(session, now)) throw invalidSession();
    const user = await this.users.findById(session.userId);
    if (!user) {
      await this.sessions.remove(tokenHash);
      throw invalidSession();
    }
    if (isDueForExtension(session, now, this.config.USER_SESSION_IDLE_TTL_SECONDS)) await this.store(tokenHash, user.id);
    return { me: await this.meOf(user), tokenId: null };
  }

  async end(token: string): Promise<void> {
    if (isPrefixedToken(USER_SESSION_PREFIX, token)) await this.sessions.remove(hashSecret(token));
  }

  /** The user with their roles: what `GET /auth/v1/me` answers and every permission check reads. */
  async meOf(user: UserRecord): Promise<Principal['me']> {
    const memberships = await this.memberships.listByUser(user.id);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      image: user.image,
      memberships: memberships.map(({ projectId, role }) => ({ projectId, role })),
    };
  }

  private async store(tokenHash: string, userId: string): Promise<void> {
    const ttl = this.config.USER_SESSION_IDLE_TTL_SECONDS;
    await this.sessions.save(tokenHash, { userId, expiresAt: this.clock.now().getTime() + ttl * 1000 }, ttl);
  }
}
