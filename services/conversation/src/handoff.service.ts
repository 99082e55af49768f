import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentConversation,
  type AgentEvent,
  AppError,
  type ConversationMessages,
  HELD_LIMIT,
  type HeldConversations,
  type HumanAgentRef,
} from '@palaver/contracts';
import type { z } from 'zod';
import { ConversationExecutor } from './conversation.executor';
import { conversationNotFound } from './domain/conversation.errors';
import { AgentFeed } from './projections/agent-feed';
import { type ConversationDoc, ReadModel } from './projections/read-model';
import { toAgentConversation } from './queries/agent.presenter';
import { toMessage } from './queries/conversation.presenter';

type Req<K extends keyof typeof ConversationMessages> = z.output<(typeof ConversationMessages)[K]['request']>;

/** Candidates read per round of `claimNext`, and rounds before it gives up on a churning queue. */
const CLAIM_PAGE = 10;
const CLAIM_ROUNDS = 5;
/** Held conversations read per round of `releaseHeld`. */
const RELEASE_PAGE = 100;

/**
 * The human side of conversations: the queue, claims, releases and the agents' feed. Every
 * transition is a command of the conversation aggregate, so two agents racing for one
 * conversation meet at the event store's expected version and only one of them gets it.
 */
@Injectable()
export class HandoffService {
  constructor(
    @Inject(ConversationExecutor) private readonly executor: ConversationExecutor,
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(AgentFeed) private readonly feed: AgentFeed,
  ) {}

  async requestHandoff(req: Req<'requestHandoff'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'RequestHandoff', ...req, messageId: null });
    return this.agentConversation(req);
  }

  async claim(req: Req<'claim'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'Claim', ...req });
    return this.agentConversation(req);
  }

  async release(req: Req<'release'>): Promise<AgentConversation> {
    await this.executor.execute({ type: 'Release', ...req });
    return this.agentConversation(req);
  }

  /**
   * Hands back to the assistant every open conversation the agent holds (its token was revoked),
   * each by the same command as the agent's own release, so one taken or closed meanwhile is
   * left as it is. Read page by page in id order: a release takes a conversation out of the query.
   */
  async releaseHeld(req: Req<'releaseHeld'>): Promise<{ released: string[] }> {
    const released: string[] = [];
    let after = '';
    for (;;) {
      const held = await this.readModel.conversations.find(
        { projectId: req.projectId, handoffStatus: 'claimed', status: 'open', 'humanAgent.id': req.humanAgentId, _id: { $gt: after } },
        { sort: { _id: 1 }, limit: RELEASE_PAGE },
      );
      for (const doc of held) {
        if (await this.tryRelease(req.projectId, doc._id, req.humanAgentId)) released.push(doc._id);
      }
      if (held.length < RELEASE_PAGE) return { released };
      after = held.at(-1)!._id;
    }
  }

  /** The oldest waiting conversation the caller manages to claim; one lost to a faster agent is skipped. */
  async claimNext(req: Req<'claimNext'>): Promise<{ conversation: AgentConversation | null }> {
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const waiting = await this.waiting(req.projectId, CLAIM_PAGE);
      if (waiting.length === 0) return { conversation: null };
      for (const candidate of waiting) {
        if (await this.tryClaim(req.projectId, candidate._id, req.humanAgent)) {
          return { conversation: await this.agentConversation({ projectId: req.projectId, conversationId: candidate._id }) };
        }
      }
    }
    return { conversation: null };
  }

  async queue(req: Req<'queue'>): Promise<{ data: AgentConversation[] }> {
    const waiting = await this.waiting(req.projectId, req.limit);
    return { data: await Promise.all(waiting.map((doc) => this.present(doc))) };
  }

  async agentConversation(req: { projectId: string; conversationId: string }): Promise<AgentConversation> {
    const doc = await this.readModel.conversations.findOne({ _id: req.conversationId, projectId: req.projectId });
    if (!doc) throw conversationNotFound(req.conversationId);
    return this.present(doc);
  }

  /**
   * The feed's position is read first: a read model is written before its feed entry takes a
   * sequence, so whatever has a sequence up to it is in the conversations read after it, and
   * whatever comes later is in the feed after it.
   */
  async heldConversations(req: Req<'heldConversations'>): Promise<HeldConversations> {
    const feedCursor = String(await this.feed.position(req.projectId));
    const held = await this.readModel.conversations.find(
      { projectId: req.projectId, handoffStatus: 'claimed', status: 'open', 'humanAgent.id': req.humanAgentId },
      { sort: { handoffAt: 1, _id: 1 }, limit: HELD_LIMIT },
    );
    return { data: await Promise.all(held.map((doc) => this.present(doc))), feedCursor };
  }

  async agentEvents(req: Req<'agentEvents'>): Promise<{ data: AgentEvent[] }> {
    const entries = await this.feed.after(req.projectId, req.after, req.limit);
    // A page often holds several entries of one conversation: present each conversation once.
    const conversations = new Map<string, Promise<AgentConversation>>();
    const conversationOf = (conversationId: string): Promise<AgentConversation> => {
      let presented = conversations.get(conversationId);
      if (!presented) {
        presented = this.agentConversation({ projectId: req.projectId, conversationId });
        conversations.set(conversationId, presented);
      }
      return presented;
    };
    const data = await Promise.all(
      entries.map(async (entry): Promise<AgentEvent> => {
        const message = entry.messageId ? await this.readModel.messages.findOne({ _id: entry.messageId, projectId: req.projectId }) : null;
        return {
          id: String(entry.seq),
          type: entry.type,
          occurredAt: entry.occurredAt,
          conversationId: entry.conversationId,
          humanAgentId: entry.humanAgentId,
          conversation: await conversationOf(entry.conversationId),
          message: message ? toMessage(message) : null,
        };
      }),
    );
    return { data };
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
  private async tryRelease(projectId: string, conversationId: string, humanAgentId: string): Promise<boolean> {
    try {
      await this.executor.execute({ type: 'Release', projectId, conversationId, humanAgentId });
      return true;
    } catch (err) {
      const field = err instanceof AppError && err.code === 'CONFLICT' ? err.details?.conflictingField : undefined;
      if (field === 'humanAgent' || field === 'status') return false;
      throw err;
    }
  }

  /** Open conversations waiting for an agent, oldest request first. */
  private waiting(projectId: string, limit: number): Promise<ConversationDoc[]> {
    return this.readModel.conversations.find(
      { projectId, handoffStatus: 'waiting', status: 'open' },
      { sort: { handoffRequestedAt: 1, _id: 1 }, limit },
    );
  }

  private async present(doc: ConversationDoc): Promise<AgentConversation> {
    const messages = await this.readModel.messages.find({ projectId: doc.projectId, conversationId: doc._id }, { sort: { seq: 1 } });
    return toAgentConversation(doc, messages);
  }
}
