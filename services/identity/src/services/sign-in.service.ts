import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type UserRecord, type UserSession } from '@palaver/contracts';
import { type Clock, DuplicateKeyError, type KeyValueStore, logger, Ports } from '@palaver/platform';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { UserRepository } from '../repositories/user.repository';
import { AuditService } from './audit.service';
import { PasswordHasher } from './password.hasher';
import { UserSessionService } from './user-session.service';

/** Failed sign-ins one account, or one address, may have in a window before it is refused (docs/accounts.md). */
export const SIGN_IN_THROTTLE = { failures: 5, windowSeconds: 15 * 60 } as const;

const wrongCredentials = (): AppError => new AppError('UNAUTHORIZED', 'wrong email or password');
const tooMany = (ms: number): AppError =>
  new AppError('RATE_LIMIT_EXCEEDED', 'too many failed sign-ins: retry later', { retryAfter: Math.max(1, Math.ceil(ms / 1000)) });

/**
 * Email and password sign-in, and single sign-on's. A wrong email and a wrong password answer
 * alike and take as long (the password is verified against a decoy hash when there is no account).
 * Failures are counted per account and per address in the key-value store (shared by every
 * instance when distributed); past the limit either is refused until its window ends, a right
 * password included, so the answer tells a guesser nothing.
 */
@Injectable()
export class SignInService {
  private readonly byAccount: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(
    @Inject(UserRepository) private readonly users: UserRepository,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(UserSessionService) private readonly sessions: UserSessionService,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.kv) kv: KeyValueStore,
  ) {
    const limit = { points: SIGN_IN_THROTTLE.failures, durationSeconds: SIGN_IN_THROTTLE.windowSeconds };
    this.byAccount = kv.rateLimiter({ keyPrefix: 'identity:sign-in:account', ...limit });
    this.byAddress = kv.rateLimiter({ keyPrefix: 'identity:sign-in:address', ...limit });
  }

  async login(email: string, password: string, address: string): Promise<{ user: UserRecord; session: UserSession }> {
    const account = email.trim().toLowerCase();
    await this.assertNotThrottled(account, address);
    const found = await this.users.findCredentials(account);
    const valid = await this.hasher.verify(found?.passwordHash ?? null, password);
    if (!found || !valid) {
      await this.countFailure(account, address);
      throw wrongCredentials();
    }
    await this.byAccount.delete(account).catch(() => undefined);
    return { user: found.user, session: await this.sessions.issue(found.user.id) };
  }

  /** The provider has verified the email: the user with it, or a new active one, signed in. */
  async ssoLogin(email: string, name: string, issuer: string): Promise<{ user: UserRecord; session: UserSession }> {
    const account = email.trim().toLowerCase();
    let user = (await this.users.findCredentials(account))?.user ?? null;
    if (!user) {
      const created: UserRecord = {
        id: randomUUID(),
        email: account,
        name: name || account,
        image: null,
        status: 'active',
        createdAt: this.clock.now().toISOString(),
      };
      try {
        await this.users.insert(created, null);
        user = created;
        await this.audit.record(
          { type: 'user', id: created.id, email: account },
          null,
          'user.created',
          { type: 'user', id: created.id },
          { email: account, via: issuer },
        );
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        user = (await this.users.findCredentials(account))?.user ?? null;
        if (!user) throw err;
      }
    } else if (user.status === 'invited') {
      user = (await this.users.update(user.id, { status: 'active' })) ?? user;
    }
    return { user, session: await this.sessions.issue(user.id) };
  }

  private async assertNotThrottled(account: string, address: string): Promise<void> {
    const [forAccount, forAddress] = await Promise.all([this.byAccount.get(account), this.byAddress.get(address)]);
    for (const state of [forAccount, forAddress]) {
      if (state && state.consumedPoints >= SIGN_IN_THROTTLE.failures) throw tooMany(state.msBeforeNext);
    }
  }

  private async countFailure(account: string, address: string): Promise<void> {
    try {
      await Promise.all([this.byAccount.consume(account, 1), this.byAddress.consume(address, 1)]);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(err.msBeforeNext);
      logger.warn({ err }, 'sign-in throttle unavailable');
    }
  }
}
