import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { API_TOKEN_PREFIX, type ApiTokenRecord, AppError, type CreatedApiToken, type Principal } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { keyHint } from '../domain/api-key';
import { isPrefixedToken, newPrefixedToken } from '../domain/prefixed-token';
import { hashSecret } from '../domain/secret-hash';
import { ApiTokenRepository } from '../repositories/api-token.repository';
import { UserRepository } from '../repositories/user.repository';
import { AuditService } from './audit.service';
import { secureRandomBytes } from './random-bytes';
import { userNotFound } from './user.service';
import { UserSessionService } from './user-session.service';

const invalidToken = (): AppError => new AppError('UNAUTHORIZED', 'API token is invalid or has been revoked');

/** Personal API tokens (`pat_…`): scripts act with their user's roles. Shown once, stored as their SHA-256. */
@Injectable()
export class ApiTokenService {
  constructor(
    @Inject(ApiTokenRepository) private readonly tokens: ApiTokenRepository,
    @Inject(UserRepository) private readonly users: UserRepository,
    @Inject(UserSessionService) private readonly sessions: UserSessionService,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async create(userId: string, name: string): Promise<CreatedApiToken> {
    const user = await this.users.findById(userId);
    if (!user) throw userNotFound(userId);
    const token = newPrefixedToken(API_TOKEN_PREFIX, secureRandomBytes);
    const record: ApiTokenRecord = {
      id: randomUUID(),
      userId,
      name,
      hint: keyHint(token),
      createdAt: this.clock.now().toISOString(),
      revokedAt: null,
    };
    await this.tokens.insert(record, hashSecret(token));
    await this.audit.record(
      { type: 'user', id: userId, email: user.email },
      null,
      'api-token.created',
      { type: 'api-token', id: record.id },
      { name },
    );
    return { ...record, token };
  }

  async list(userId: string): Promise<ApiTokenRecord[]> {
    return this.tokens.listByUser(userId);
  }

  async revoke(userId: string, tokenId: string): Promise<ApiTokenRecord> {
    const revoked = await this.tokens.revoke(userId, tokenId, this.clock.now().toISOString());
    if (!revoked) throw new AppError('NOT_FOUND', `API token ${tokenId} not found`, { resource: 'api-token', tokenId });
    await this.audit.record({ type: 'user', id: userId, email: null }, null, 'api-token.revoked', { type: 'api-token', id: tokenId });
    return revoked;
  }

  /** Looked up on every call: a revocation or a deleted user takes effect at once. */
  async resolve(token: string): Promise<Principal> {
    if (!isPrefixedToken(API_TOKEN_PREFIX, token)) throw invalidToken();
    const record = await this.tokens.findLiveByHash(hashSecret(token));
    const user = record ? await this.users.findById(record.userId) : null;
    if (!record || !user) throw invalidToken();
    return { me: await this.sessions.meOf(user), tokenId: record.id };
  }
}
