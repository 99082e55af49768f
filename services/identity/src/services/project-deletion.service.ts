import { Inject, Injectable } from '@nestjs/common';
import { type Actor, PrivacyMessages } from '@palaver/contracts';
import { type Clock, type DocumentStore, logger, Ports, type ServiceClient } from '@palaver/platform';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { AgentRepository } from '../repositories/agent.repository';
import { CannedReplyRepository } from '../repositories/canned-reply.repository';
import { KeyRepository } from '../repositories/key.repository';
import { MembershipRepository } from '../repositories/membership.repository';
import { ProjectRepository } from '../repositories/project.repository';
import { VISITORS, VisitorRepository } from '../repositories/visitor.repository';
import { AgentService } from './agent.service';
import { AuditService } from './audit.service';
import { KeyService } from './key.service';
import { projectNotFound } from './project.service';

/**
 * Deleting a project (docs/accounts.md, docs/privacy.md). Before it answers: every key of the
 * project is revoked (its sessions with it) and every agent, each announced to every gateway as
 * a single revocation is; then the project is marked deleted (found by nothing after, announced
 * as changed), its canned replies and memberships deleted, the deletion audited. After it
 * answers, in the background: the conversation service erases its conversations, the search
 * service its knowledge and the analytics service its events, insights and webhooks; the daily retention run erases what a crash left (it lists the deleted
 * projects).
 */
@Injectable()
export class ProjectDeletionService {
  constructor(
    @Inject(ProjectRepository) private readonly projects: ProjectRepository,
    @Inject(KeyRepository) private readonly keyRecords: KeyRepository,
    @Inject(KeyService) private readonly keys: KeyService,
    @Inject(AgentRepository) private readonly agentRecords: AgentRepository,
    @Inject(AgentService) private readonly agents: AgentService,
    @Inject(CannedReplyRepository) private readonly cannedReplies: CannedReplyRepository,
    @Inject(MembershipRepository) private readonly memberships: MembershipRepository,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(Ports.documents) private readonly documents: DocumentStore,
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async delete(actor: Actor, projectId: string): Promise<{ ok: true }> {
    const project = await this.projects.findById(projectId);
    if (!project) throw projectNotFound(projectId);
    for (const key of await this.keyRecords.listByProject(projectId)) {
      if (key.revokedAt === null) await this.keys.revoke(projectId, key.id);
    }
    for (const agent of await this.agentRecords.listByProject(projectId)) {
      if (agent.revokedAt === null) await this.agents.revoke(projectId, agent.id);
    }
    if (!(await this.projects.markDeleted(projectId, this.clock.now().toISOString()))) throw projectNotFound(projectId);
    await this.changes.announce({ kind: 'project-changed', projectId });
    await this.cannedReplies.deleteForProject(projectId);
    await this.memberships.removeForProject(projectId);
    await this.visitors.deleteForProject(projectId);
    await this.documents.compact([VISITORS]);
    await this.audit.record(actor, projectId, 'project.deleted', { type: 'project', id: projectId }, { name: project.name });
    void this.eraseData(projectId);
    return { ok: true };
  }

  /** The deleted projects, for the retention run that finishes an erasure a crash stopped. */
  listDeleted(): Promise<{ id: string; deletedAt: string }[]> {
    return this.projects.listDeleted();
  }

  private async eraseData(projectId: string): Promise<void> {
    try {
      await this.services.send(PrivacyMessages.eraseProjectConversations, { projectId });
      await this.services.send(PrivacyMessages.eraseProjectKnowledge, { projectId });
      // After the conversations: their erasure's events reach analytics first, most of them at least.
      await this.services.send(PrivacyMessages.eraseProjectAnalytics, { projectId });
    } catch (err) {
      logger.warn({ err, projectId }, "a deleted project's data was not all erased; the next retention run erases the rest");
    }
  }
}
