import { Inject, Injectable } from '@nestjs/common';
import type { AdminConversationFilter, ConversationStatus } from '@palaver/contracts';
import { type Filter, findPage, type Sort } from '@palaver/platform';
import { type ConversationDoc, ReadModel } from './read-model';

/** A page of conversations and how many match in all. */
export interface ConversationPage {
  docs: ConversationDoc[];
  total: number;
}

const adminFilterOf = (projectId: string, f: AdminConversationFilter): Filter => ({
  projectId,
  ...(f.status ? { status: f.status } : {}),
  ...(f.humanHandled !== undefined ? { isHumanHandled: f.humanHandled } : {}),
  ...(f.visitorId ? { visitorId: f.visitorId } : {}),
  ...(f.from || f.to ? { lastInteractionAt: { ...(f.from ? { $gte: f.from } : {}), ...(f.to ? { $lt: f.to } : {}) } } : {}),
});

/** The `conversations` read model: every query of it, each scoped to one project. */
@Injectable()
export class ConversationReadRepository {
  constructor(@Inject(ReadModel) private readonly readModel: ReadModel) {}

  get(projectId: string, conversationId: string): Promise<ConversationDoc | null> {
    return this.readModel.conversations.findOne({ _id: conversationId, projectId });
  }

  /** One visitor's conversations, optionally of one status. */
  async visitorPage(
    projectId: string,
    visitorId: string,
    status: ConversationStatus | undefined,
    page: { sort: Sort; skip: number; limit: number },
  ): Promise<ConversationPage> {
    const filter: Filter = { projectId, visitorId, ...(status ? { status } : {}) };
    return this.page(filter, page);
  }

  /** The dashboard's list: every visitor's conversations, by last interaction. */
  adminPage(projectId: string, filter: AdminConversationFilter, dir: 1 | -1, skip: number, limit: number): Promise<ConversationPage> {
    return this.page(adminFilterOf(projectId, filter), { sort: { lastInteractionAt: dir, _id: dir }, skip, limit });
  }

  /** One page of the export, in creation order (then id) after `after`. */
  exportPage(
    projectId: string,
    filter: AdminConversationFilter,
    after: { createdAt: string; id: string } | null | undefined,
    limit: number,
  ): Promise<ConversationDoc[]> {
    const afterCursor = after
      ? { $or: [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, _id: { $gt: after.id } }] }
      : {};
    return this.readModel.conversations.find(
      { ...adminFilterOf(projectId, filter), ...afterCursor },
      { sort: { createdAt: 1, _id: 1 }, limit },
    );
  }

  /** The ids of every conversation of the visitor, oldest first (export, erasure). */
  async idsOfVisitor(projectId: string, visitorId: string): Promise<string[]> {
    const docs = await this.readModel.conversations.find({ projectId, visitorId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map((doc) => doc._id);
  }

  /** Every conversation id of the project (a deleted project's erasure). */
  async idsOfProject(projectId: string): Promise<string[]> {
    const docs = await this.readModel.conversations.find({ projectId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map((doc) => doc._id);
  }

  /** Conversations whose last activity is before `cutoff` (retention), oldest activity first. */
  inactiveBefore(projectId: string, cutoff: string, limit: number): Promise<ConversationDoc[]> {
    return this.readModel.conversations.find(
      { projectId, lastInteractionAt: { $lt: cutoff } },
      { sort: { lastInteractionAt: 1, _id: 1 }, limit },
    );
  }

  /** Open conversations waiting for an agent, oldest request first. */
  waiting(projectId: string, limit: number): Promise<ConversationDoc[]> {
    return this.readModel.conversations.find(
      { projectId, handoffStatus: 'waiting', status: 'open' },
      { sort: { handoffRequestedAt: 1, _id: 1 }, limit },
    );
  }

  /** Open conversations the agent holds, in the order they were handed over. */
  heldBy(projectId: string, humanAgentId: string, limit: number): Promise<ConversationDoc[]> {
    return this.readModel.conversations.find(
      { projectId, handoffStatus: 'claimed', status: 'open', 'humanAgent.id': humanAgentId },
      { sort: { handoffAt: 1, _id: 1 }, limit },
    );
  }

  /** Open conversations the agent holds, in id order after `afterId` (a page of a walk through them). */
  heldByAfter(projectId: string, humanAgentId: string, afterId: string, limit: number): Promise<ConversationDoc[]> {
    return this.readModel.conversations.find(
      { projectId, handoffStatus: 'claimed', status: 'open', 'humanAgent.id': humanAgentId, _id: { $gt: afterId } },
      { sort: { _id: 1 }, limit },
    );
  }

  private async page(filter: Filter, { sort, skip, limit }: { sort: Sort; skip: number; limit: number }): Promise<ConversationPage> {
    const { total, data } = await findPage(this.readModel.conversations, filter, { sort, limit, offset: skip });
    return { docs: data, total };
  }
}
