import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  type CreatedUser,
  type CreateUserBody,
  type Invitation,
  type UpdateUserBody,
  type UserRecord,
} from '@palaver/contracts';
import { type Clock, type Config, DuplicateKeyError, Ports } from '@palaver/platform';
import { assertAcceptablePassword } from '../domain/password-policy';
import { INVITATION_PREFIX, isPrefixedToken, newPrefixedToken } from '../domain/prefixed-token';
import { hashSecret } from '../domain/secret-hash';
import { ApiTokenRepository } from '../repositories/api-token.repository';
import { InvitationRepository } from '../repositories/invitation.repository';
import { MembershipRepository } from '../repositories/membership.repository';
import { UserRepository } from '../repositories/user.repository';
import { AuditService } from './audit.service';
import { HeldConversations } from './held-conversations';
import { PasswordHasher } from './password.hasher';
import { secureRandomBytes } from './random-bytes';

export const userNotFound = (userId: string): AppError =>
  new AppError('NOT_FOUND', `user ${userId} not found`, { resource: 'user', userId });
const invalidInvitation = (): AppError => new AppError('UNAUTHORIZED', 'this invitation is invalid, used or expired: ask for a new one');

/** People who sign in to the dashboard. Never answers a password or its hash. */
@Injectable()
export class UserService {
  constructor(
    @Inject(UserRepository) private readonly users: UserRepository,
    @Inject(InvitationRepository) private readonly invitations: InvitationRepository,
    @Inject(MembershipRepository) private readonly memberships: MembershipRepository,
    @Inject(ApiTokenRepository) private readonly apiTokens: ApiTokenRepository,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Pick<Config, 'INVITATION_TTL_SECONDS'>,
    @Inject(HeldConversations) private readonly held: HeldConversations,
  ) {}

  /** Without a password the user is `invited` and the answer carries their one-time invitation link. */
  async create(actor: Actor, body: CreateUserBody): Promise<CreatedUser> {
    if (body.password !== undefined) assertAcceptablePassword(body.password, body.email);
    const user: UserRecord = {
      id: randomUUID(),
      email: body.email,
      name: body.name,
      image: body.image ?? null,
      status: body.password === undefined ? 'invited' : 'active',
      createdAt: this.clock.now().toISOString(),
    };
    const passwordHash = body.password === undefined ? null : await this.hasher.hash(body.password);
    try {
      await this.users.insert(user, passwordHash);
    } catch (err) {
      if (err instanceof DuplicateKeyError)
        throw new AppError('CONFLICT', `a user with the email ${body.email} exists`, { field: 'email' });
      throw err;
    }
    const invitation = body.password === undefined ? await this.invite(user.id) : null;
    await this.audit.record(actor, null, 'user.created', { type: 'user', id: user.id }, { email: user.email, name: user.name });
    return { ...user, invitation };
  }

  async get(userId: string): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    if (!user) throw userNotFound(userId);
    return user;
  }

  list(): Promise<UserRecord[]> {
    return this.users.list();
  }

  async update(actor: Actor, userId: string, patch: UpdateUserBody): Promise<UserRecord> {
    const current = await this.get(userId);
    if (patch.password !== undefined) assertAcceptablePassword(patch.password, current.email);
    const set: Parameters<UserRepository['update']>[1] = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.image !== undefined) set.image = patch.image;
    if (patch.password !== undefined) {
      set.passwordHash = await this.hasher.hash(patch.password);
      set.status = 'active';
    }
    const updated = await this.users.update(userId, set);
    if (!updated) throw userNotFound(userId);
    await this.audit.record(
      actor,
      null,
      'user.updated',
      { type: 'user', id: userId },
      {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.image !== undefined ? { image: patch.image } : {}),
        ...(patch.password !== undefined ? { passwordChanged: true } : {}),
      },
    );
    return updated;
  }

  /** CONFLICT while the user is the last owner of a project: make someone else owner first. */
  async delete(actor: Actor, userId: string): Promise<UserRecord> {
    const user = await this.get(userId);
    const memberships = await this.memberships.listByUser(userId);
    for (const membership of memberships) {
      if (membership.role === 'owner' && (await this.memberships.countOwners(membership.projectId)) === 1) {
        throw new AppError('CONFLICT', `the user is the last owner of project ${membership.projectId}`, {
          projectId: membership.projectId,
        });
      }
    }
    // The conversations they hold go back to the queue, in every project they worked in.
    const projectIds = memberships.map((membership) => membership.projectId);
    await this.held.requeue(actor, projectIds, userId);
    await this.memberships.removeForUser(userId);
    await this.apiTokens.deleteForUser(userId);
    await this.invitations.deleteForUser(userId);
    await this.users.delete(userId);
    await this.audit.record(actor, null, 'user.deleted', { type: 'user', id: userId }, { email: user.email });
    await this.held.requeueAfter(actor, projectIds, userId);
    return user;
  }

  /** Sets the invited user's password with the link's token, once, before it expires. */
  async acceptInvite(token: string, password: string): Promise<UserRecord> {
    if (!isPrefixedToken(INVITATION_PREFIX, token)) throw invalidInvitation();
    const tokenHash = hashSecret(token);
    const now = this.clock.now().toISOString();
    const invitedId = await this.invitations.peek(tokenHash, now);
    const user = invitedId ? await this.users.findById(invitedId) : null;
    if (!user) throw invalidInvitation();
    // Checked before the link is used up: a refused password leaves it valid for a better one.
    assertAcceptablePassword(password, user.email);
    if ((await this.invitations.take(tokenHash, now)) !== user.id) throw invalidInvitation();
    const updated = await this.users.update(user.id, { passwordHash: await this.hasher.hash(password), status: 'active' });
    await this.audit.record({ type: 'user', id: user.id, email: user.email }, null, 'user.invitation-accepted', {
      type: 'user',
      id: user.id,
    });
    return updated ?? user;
  }

  private async invite(userId: string): Promise<Invitation> {
    const token = newPrefixedToken(INVITATION_PREFIX, secureRandomBytes);
    const expiresAt = new Date(this.clock.now().getTime() + this.config.INVITATION_TTL_SECONDS * 1000).toISOString();
    await this.invitations.insert(hashSecret(token), userId, expiresAt);
    return { token, url: `/dashboard/accept-invite?token=${token}`, expiresAt };
  }
}
