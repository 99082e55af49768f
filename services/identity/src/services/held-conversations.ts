import { Inject, Injectable } from '@nestjs/common';
import { type Actor, ConversationMessages } from '@palaver/contracts';
import { logger, Ports, type ServiceClient } from '@palaver/platform';

/**
 * Puts the conversations a person holds back in their projects' waiting queues when they can no
 * longer answer them (removed from the project, or deleted), so another agent takes them.
 */
@Injectable()
export class HeldConversations {
  constructor(@Inject(Ports.services) private readonly services: ServiceClient) {}

  /**
   * Before the removal: a failure fails the call, nothing is removed yet, and trying again
   * finishes the job. The conversation service audits each conversation it requeues.
   */
  async requeue(actor: Actor, projectIds: readonly string[], userId: string): Promise<void> {
    for (const projectId of projectIds) {
      await this.services.send(ConversationMessages.requeueHeld, { projectId, humanAgentId: userId, actor }, { idempotent: true });
    }
  }

  /** After the removal: catches one claimed in between; a failure is logged, the removal stands. */
  async requeueAfter(actor: Actor, projectIds: readonly string[], userId: string): Promise<void> {
    try {
      await this.requeue(actor, projectIds, userId);
    } catch (err) {
      logger.error({ err, userId }, 'conversations held by a removed member were not all requeued');
    }
  }
}
