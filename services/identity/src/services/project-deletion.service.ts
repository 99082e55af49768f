import { Inject, Injectable } from '@nestjs/common';
import { type Actor, PrivacyMessages } from '@palaver/contracts';
import { type Clock, logger, Ports, type ServiceClient } from '@palaver/platform';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { CannedReplyRepository } from '../repositories/canned-reply.repository';
import { MembershipRepository } from '../repositories/membership.repository';
import { ProjectRepository } from '../repositories/project.repository';
import { VisitorRepository } from '../repositories/visitor.repository';
import { AgentService } from './agent.service';
import { AuditService } from './audit.service';
import { KeyService } from './key.service';
import { projectNotFound } from './project.service';

/** A large project's erasure takes long; it runs in the background, so it may. */
const ERASURE_TIMEOUT_MS = 10 * 60_000;

/**
 * Deleting a project (docs/accounts.md, docs/privacy.md). Before it answers: every key of the
 * project is revoked (its sessions with it) and every agent, each announced to every gateway as
 * a single revocation is; then the project is marked deleted (found by nothing after, announced
 * as changed), its canned replies, memberships and visitor profiles deleted (identity's visitors
 * file compacted), the deletion audited. After it answers, in the background: the conversation
 * service erases its conversations, the search service its knowledge, the analytics service its
 * events, insights and webhooks. The daily retention run lists the deleted projects and erases
 * what a crash left of them.
 */
@Injectable()
export class ProjectDeletionService {
  constructor(
    @Inject(ProjectRepository) private readonly projects: ProjectRepository,
    @Inject(KeyService) private readonly keys: KeyService,
    @Inject(AgentService) private readonly agents: AgentService,
    @Inject(CannedReplyRepository) private readonly cannedReplies: CannedReplyRepository,
    @Inject(MembershipRepository) private readonly memberships: MembershipRepository,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async delete(actor: Actor, projectId: string): Promise<{ ok: true }> {
    const project = await this.projects.findById(projectId);
    if (!project) throw projectNotFound(projectId);
    await this.keys.revokeAll(projectId);
    await this.agents.revokeAll(projectId);
    // What may go before the mark does: a call that fails half-way can be made again.
    await this.cannedReplies.deleteForProject(projectId);
    await this.visitors.deleteForProject(projectId);
    await this.visitors.compact();
    if (!(await this.projects.markDeleted(projectId, this.clock.now().toISOString()))) throw projectNotFound(projectId);
    await this.changes.announce({ kind: 'project-changed', projectId });
    // After it: until then the owner may still call again; a membership left by a crash names a project nobody finds.
    await this.memberships.removeForProject(projectId);
    await this.audit.record(actor, projectId, 'project.deleted', { type: 'project', id: projectId }, { name: project.name });
    void this.eraseData(projectId);
    return { ok: true };
  }

  /** The deleted projects, for the retention run that finishes an erasure a crash stopped. */
  listDeleted(): Promise<{ id: string; deletedAt: string }[]> {
    return this.projects.listDeleted();
  }

  /** Each service in turn, each on its own: one that fails or times out leaves the others to go on. */
  private async eraseData(projectId: string): Promise<void> {
    // Conversations first: their erasure's events reach analytics before analytics deletes the project's rows.
    const messages = [
      PrivacyMessages.eraseProjectConversations,
      PrivacyMessages.eraseProjectKnowledge,
      PrivacyMessages.eraseProjectAnalytics,
    ];
    for (const message of messages) {
      try {
        await this.services.send(message, { projectId }, { timeoutMs: ERASURE_TIMEOUT_MS });
      } catch (err) {
        logger.warn(
          { err, projectId, subject: message.subject },
          "a deleted project's data was not all erased; the next retention run erases the rest",
        );
      }
    }
  }
}
