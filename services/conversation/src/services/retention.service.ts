import { Inject, Injectable } from '@nestjs/common';
import { IdentityMessages, PrivacyMessages, RETENTION_ACTOR } from '@palaver/contracts';
import { AuditOutbox, type Clock, drainListing, logger, Ports, type ServiceClient } from '@palaver/platform';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { RetentionRunRepository } from '../repositories/retention-run.repository';
import { ConversationErasureService } from './conversation-erasure.service';

const DAY_MS = 86_400_000;
/** Conversations looked at per query; a project with more expired ones is worked through in batches. */
const BATCH = 100;

/**
 * Retention (docs/privacy.md): once a day, every project with `retentionDays` loses the
 * conversations whose last activity is older, erased as a visitor's erasure erases them, and one
 * record and one audit entry per visitor concerned (reason `retention`; their profile stays).
 * A deleted project's conversations, knowledge and analytics that are left (a crash) are erased in the same run.
 */
@Injectable()
export class RetentionService {
  constructor(
    @Inject(ConversationErasureService) private readonly erasure: ConversationErasureService,
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(RetentionRunRepository) private readonly runs: RetentionRunRepository,
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(AuditOutbox) private readonly audit: AuditOutbox,
  ) {}

  /** Runs today's retention unless it already ran (in any instance); answers how many conversations it erased. */
  async runIfDue(): Promise<number> {
    const now = this.clock.now();
    if (!(await this.runs.claim(now.toISOString().slice(0, 10)))) return 0;
    return this.eraseExpired(now);
  }

  /** Erases every conversation past its project's retention at `now`. */
  async eraseExpired(now: Date): Promise<number> {
    const { data: projects } = await this.services.send(IdentityMessages.listProjects, {});
    let erased = 0;
    for (const project of projects) {
      if (project.retentionDays === null) continue;
      const cutoff = new Date(now.getTime() - project.retentionDays * DAY_MS).toISOString();
      erased += await this.eraseProject(project.id, cutoff);
    }
    // A deleted project whose erasure stopped half-way (a crash) loses what is left.
    const { data: deleted } = await this.services.send(IdentityMessages.listDeletedProjects, {});
    for (const project of deleted) {
      erased += await this.erasure.eraseProject(project.id);
      for (const message of [PrivacyMessages.eraseProjectKnowledge, PrivacyMessages.eraseProjectAnalytics]) {
        await this.services
          .send(message, { projectId: project.id })
          .catch((err: unknown) =>
            logger.warn(
              { err, projectId: project.id, subject: message.subject },
              "a deleted project's data was not erased; tried again at the next run",
            ),
          );
      }
    }
    if (erased > 0) {
      await this.erasure.compact();
      logger.info({ erased }, 'retention: erased conversations past their projects’ retention');
    }
    return erased;
  }

  private async eraseProject(projectId: string, cutoff: string): Promise<number> {
    const byVisitor = new Map<string, number>();
    const erased = await drainListing(
      () => this.conversations.inactiveBefore(projectId, cutoff, BATCH),
      (conversation) => conversation._id,
      async (batch) => {
        await this.erasure.erase(
          projectId,
          batch.map((c) => c._id),
          'retention',
        );
        for (const c of batch) byVisitor.set(c.visitorId, (byVisitor.get(c.visitorId) ?? 0) + 1);
      },
    );
    for (const [visitorId, conversations] of byVisitor) {
      // As a visitor erasure is audited (counts, never content), by the retention job.
      const entry = {
        projectId,
        actor: RETENTION_ACTOR,
        action: 'visitor.erased',
        target: { type: 'visitor', id: visitorId },
        changes: { conversations, profileErased: false, by: 'retention' },
      };
      await this.audit.around(entry, () =>
        this.erasure.record({
          projectId,
          visitorId,
          reason: 'retention',
          erasedBy: { kind: 'retention', id: null },
          conversations,
          profileErased: false,
        }),
      );
    }
    return erased;
  }
}
