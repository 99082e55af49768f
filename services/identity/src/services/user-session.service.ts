import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Principal, type UserRecord, type UserSession } from '@palaver/contracts';
import { MembershipRepository } from '../repositories/membership.repository';
import { UserRepository } from '../repositories/user.repository';
import { UserSessionStore } from '../repositories/user-session.store';

const invalidSession = (): AppError => new AppError('UNAUTHORIZED', 'not signed in, or the session has expired');

/**
 * Dashboard sessions: opaque `us_` tokens (the cookie's value) with a sliding idle expiry (see
 * IdleSessionStore). The user and their roles are read on every resolve, so a deleted user or a
 * removed membership takes effect at the next request.
 */
@Injectable()
export class UserSessionService {
  constructor(
    @Inject(UserSessionStore) private readonly sessions: UserSessionStore,
    @Inject(UserRepository) private readonly users: UserRepository,
    @Inject(MembershipRepository) private readonly memberships: MembershipRepository,
  ) {}

  async issue(userId: string): Promise<UserSession> {
    const token = await this.sessions.open({ userId });
    return { token, idleSeconds: this.sessions.idleTtlSeconds };
  }

  async resolve(token: string): Promise<Principal> {
    const session = await this.sessions.find(token);
    if (!session) throw invalidSession();
    const user = await this.users.findById(session.stored.userId);
    if (!user) {
      await this.sessions.remove(session);
      throw invalidSession();
    }
    await this.sessions.extendIfDue(session);
    return { me: await this.meOf(user), tokenId: null };
  }

  end(token: string): Promise<void> {
    return this.sessions.end(token);
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
}
