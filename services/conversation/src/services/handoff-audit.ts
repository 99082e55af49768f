import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '@palaver/contracts';
import { AuditOutbox } from '@palaver/platform';

/**
 * Audits the handoff actions taken through the admin and agents' APIs (`actor` given): who
 * requested, assigned, claimed, released, requeued or closed which conversation. A command
 * without an actor (a visitor's request, a revoked agent's release) is not audited here.
 */
@Injectable()
export class HandoffAudit {
  constructor(@Inject(AuditOutbox) private readonly outbox: AuditOutbox) {}

  around<T>(
    req: { projectId: string; conversationId: string; actor?: Actor | undefined },
    action: string,
    change: () => Promise<T>,
    changes?: Record<string, unknown>,
  ): Promise<T> {
    if (!req.actor) return change();
    return this.outbox.around(
      {
        projectId: req.projectId,
        actor: req.actor,
        action,
        target: { type: 'conversation', id: req.conversationId },
        ...(changes ? { changes } : {}),
      },
      change,
    );
  }

  /** For a change whose conversation is only known once made (the next in the queue). */
  record(
    projectId: string,
    conversationId: string,
    actor: Actor | undefined,
    action: string,
    changes?: Record<string, unknown>,
  ): Promise<void> {
    if (!actor) return Promise.resolve();
    return this.outbox.record({
      projectId,
      actor,
      action,
      target: { type: 'conversation', id: conversationId },
      ...(changes ? { changes } : {}),
    });
  }
}
