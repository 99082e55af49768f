import { Inject, Injectable } from '@nestjs/common';
import { type AgentConversation, AppError, type ConversationMessages, type HumanAgentRef } from '@palaver/contracts';
import type { z } from 'zod';
import type { ConversationCommand } from '../domain/conversation.commands';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import type { ConversationDoc } from '../repositories/read-model';
import { ConversationExecutor } from './conversation.executor';
import { HandoffAudit } from './handoff-audit';
import { HandoffQueryService } from './handoff-query.service';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;

/** Candidates read per round of `claimNext`, and rounds before it gives up on a churning queue. */
const CLAIM_PAGE = 10;
const CLAIM_ROUNDS = 5;
/** Held conversations read per round of `releaseHeld`. */
const RELEASE_PAGE = 100;
const MOVED_ON = Symbol('moved on');

/**
 * The human side's commands: requests, claims and releases. Every transition is a command of the
 * conversation aggregate, so two agents racing for one conversation meet at the event store's
 * expected version and only one of them gets it.
 */
@Injectable()
export class HandoffCommandService {
  constructor(
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(ConversationReadRepository) private readonly conversations: ConversationReadRepository,
    @Inject(HandoffQueryService) private readonly queries: HandoffQueryService,
    @Inject(HandoffAudit) private readonly audit: HandoffAudit,
  ) {}

  async requestHandoff(req: Req<'requestHandoff'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'RequestHandoff', ...req, messageId: null });
    return this.queries.agentConversation(req);
  }

  async agentClose(req: Req<'agentClose'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'AgentClose', ...req });
    return this.queries.agentConversation(req);
  }

  async claim(req: Req<'claim'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'Claim', ...req });
    return this.queries.agentConversation(req);
  }

  async release(req: Req<'release'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'Release', ...req });
    return this.queries.agentConversation(req);
  }

  /**
   * Hands back to the assistant every open conversation the agent holds (its token was revoked),
   * each by the same command as the agent's own release, so one taken or closed meanwhile is
   * left as it is. Read page by page in id order: a release takes a conversation out of the query.
   */
  async releaseHeld(req: Req<'releaseHeld'>): Promise<{ released: string[] }> {
    const released: string[] = [];
    for await (const doc of this.heldIn(req.projectId, req.humanAgentId)) {
      if (await this.tryRelease(req.projectId, doc._id, req.humanAgentId)) released.push(doc._id);
    }
    return { released };
  }

  /**
   * Puts every open conversation the person holds back in the waiting queue (they left the
   * project or were deleted), each audited as `handoff.requeued` under whoever removed them.
   */
  async requeueHeld(req: Req<'requeueHeld'>): Promise<{ requeued: string[] }> {
    const requeued: string[] = [];
    for await (const doc of this.heldIn(req.projectId, req.humanAgentId)) {
      const command = { type: 'Requeue' as const, projectId: req.projectId, conversationId: doc._id, humanAgentId: req.humanAgentId };
      // One that moved on meanwhile is left alone, and its entry dropped with the failed change.
      const moved = await this.audit
        .around(
          { ...command, actor: req.actor },
          'handoff.requeued',
          async () => {
            if (!(await this.tryCommand(command))) throw MOVED_ON;
            return true;
          },
          { heldBy: req.humanAgentId },
        )
        .catch((err: unknown) => {
          if (err === MOVED_ON) return false;
          throw err;
        });
      if (moved) requeued.push(doc._id);
    }
    return { requeued };
  }

  /**
   * The open conversations the agent holds, read page by page in id order, each page after the
   * last id of the one before: a conversation released meanwhile leaves the query without
   * moving the pages still to come.
   */
  private async *heldIn(projectId: string, humanAgentId: string): AsyncGenerator<ConversationDoc> {
    let after = '';
    for (;;) {
      const held = await this.conversations.heldByAfter(projectId, humanAgentId, after, RELEASE_PAGE);
      yield* held;
      if (held.length < RELEASE_PAGE) return;
      after = held.at(-1)!._id;
    }
  }

  /** The oldest waiting conversation the caller manages to claim; one lost to a faster agent is skipped. */
  async claimNext(req: Req<'claimNext'>): Promise<{ conversation: AgentConversation | null }> {
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const waiting = await this.conversations.waiting(req.projectId, CLAIM_PAGE);
      if (waiting.length === 0) return { conversation: null };
      for (const candidate of waiting) {
        if (await this.tryClaim(req.projectId, candidate._id, req.humanAgent)) {
          return { conversation: await this.queries.agentConversation({ projectId: req.projectId, conversationId: candidate._id }) };
        }
      }
    }
    return { conversation: null };
  }

  private async tryClaim(projectId: string, conversationId: string, humanAgent: HumanAgentRef): Promise<boolean> {
    try {
      await this.executor.execute({ type: 'Claim', projectId, conversationId, humanAgent, mode: 'queue' });
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'CONFLICT') return false;
      throw err;
    }
  }

  /** False when the conversation moved on first (another holder, closed): nothing of the agent's to release. */
  private tryRelease(projectId: string, conversationId: string, humanAgentId: string): Promise<boolean> {
    return this.tryCommand({ type: 'Release', projectId, conversationId, humanAgentId });
  }

  private async tryCommand(command: Extract<ConversationCommand, { type: 'Release' | 'Requeue' }>): Promise<boolean> {
    try {
      await this.executor.execute(command);
      return true;
    } catch (err) {
      const field = err instanceof AppError && err.code === 'CONFLICT' ? err.details?.conflictingField : undefined;
      if (field === 'humanAgent' || field === 'status') return false;
      throw err;
    }
  }
}
