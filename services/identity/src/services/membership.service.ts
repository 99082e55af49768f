import { Inject, Injectable } from '@nestjs/common';
import { type Actor, AppError, type Member, type Membership, type Role } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { MembershipRepository } from '../repositories/membership.repository';
import { UserRepository } from '../repositories/user.repository';
import { AuditService } from './audit.service';
import { HeldConversations } from './held-conversations';
import { ProjectService } from './project.service';
import { userNotFound } from './user.service';

const lastOwner = (projectId: string): AppError =>
  new AppError('CONFLICT', 'a project keeps at least one owner: make someone else owner first', { projectId });

/**
 * Who may do what in a project: one role per user and project. A removed member's held
 * conversations go back to the waiting queue.
 */
@Injectable()
export class MembershipService {
  constructor(
    @Inject(MembershipRepository) private readonly memberships: MembershipRepository,
    @Inject(UserRepository) private readonly users: UserRepository,
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(HeldConversations) private readonly held: HeldConversations,
  ) {}

  async put(actor: Actor, projectId: string, userId: string, role: Role): Promise<Membership> {
    await this.projects.get(projectId);
    if (!(await this.users.findById(userId))) throw userNotFound(userId);
    const current = await this.memberships.find(projectId, userId);
    if (current?.role === 'owner' && role !== 'owner' && (await this.memberships.countOwners(projectId)) <= 1) throw lastOwner(projectId);
    const { membership, previous } = await this.memberships.put(projectId, userId, role, this.clock.now().toISOString());
    if (previous !== role) {
      await this.audit.record(
        actor,
        projectId,
        previous === null ? 'member.added' : 'member.role-changed',
        { type: 'user', id: userId },
        {
          role,
          ...(previous !== null ? { previousRole: previous } : {}),
        },
      );
    }
    return membership;
  }

  async list(projectId: string): Promise<Member[]> {
    await this.projects.get(projectId);
    const memberships = await this.memberships.listByProject(projectId);
    const users = new Map((await this.users.findByIds(memberships.map((m) => m.userId))).map((user) => [user.id, user]));
    return memberships.flatMap((membership) => {
      const user = users.get(membership.userId);
      return user ? [{ ...membership, user }] : [];
    });
  }

  async remove(actor: Actor, projectId: string, userId: string): Promise<Membership> {
    await this.projects.get(projectId);
    const current = await this.memberships.find(projectId, userId);
    if (!current) throw new AppError('NOT_FOUND', `user ${userId} is not a member of this project`, { resource: 'member', userId });
    if (current.role === 'owner' && (await this.memberships.countOwners(projectId)) <= 1) throw lastOwner(projectId);
    await this.held.requeue(actor, [projectId], userId);
    await this.memberships.remove(projectId, userId);
    await this.audit.record(actor, projectId, 'member.removed', { type: 'user', id: userId }, { role: current.role });
    await this.held.requeueAfter(actor, [projectId], userId);
    return current;
  }

  /** The creator of a project (a user, or one of their API tokens) becomes its owner. */
  async ownCreatedProject(actor: Actor, projectId: string): Promise<void> {
    if (actor.type !== 'user' && actor.type !== 'api-token') return;
    await this.put(actor, projectId, actor.id, 'owner');
  }
}
