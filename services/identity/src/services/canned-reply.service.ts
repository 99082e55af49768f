import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CANNED_REPLIES_PER_PROJECT,
  type CannedReply,
  type CreateCannedReplyBody,
  type UpdateCannedReplyBody,
} from '@palaver/contracts';
import { type Clock, DuplicateKeyError, Ports } from '@palaver/platform';
import { definedFields } from '../domain/patch';
import { CannedReplyRepository } from '../repositories/canned-reply.repository';
import { ProjectService } from './project.service';

const notFound = (id: string): AppError => new AppError('NOT_FOUND', `canned reply ${id} not found`, { resource: 'canned-reply', id });

const shortcutTaken = (shortcut: string): AppError =>
  new AppError('CONFLICT', `the project already has a canned reply "/${shortcut}"`, {
    resource: 'canned-reply',
    conflictingField: 'shortcut',
    shortcut,
  });

/** Rethrows a unique-index violation as the 409 it means. */
const takenOr = (shortcut: string | undefined) => (err: unknown) => {
  if (err instanceof DuplicateKeyError && shortcut !== undefined) throw shortcutTaken(shortcut);
  throw err;
};

/** A project's canned replies: saved answers the agents insert by their shortcut. */
@Injectable()
export class CannedReplyService {
  constructor(
    @Inject(CannedReplyRepository) private readonly replies: CannedReplyRepository,
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  async list(projectId: string): Promise<CannedReply[]> {
    await this.projects.get(projectId);
    return this.replies.list(projectId);
  }

  /** The bound is checked before the insert: two racing creates may pass it by one. */
  async create(projectId: string, body: CreateCannedReplyBody): Promise<CannedReply> {
    await this.projects.get(projectId);
    if ((await this.replies.count(projectId)) >= CANNED_REPLIES_PER_PROJECT) {
      throw new AppError('VALIDATION_ERROR', `a project has at most ${CANNED_REPLIES_PER_PROJECT} canned replies`, {
        limit: 'cannedRepliesPerProject',
        max: CANNED_REPLIES_PER_PROJECT,
      });
    }
    const now = this.clock.now().toISOString();
    const reply: CannedReply = { id: randomUUID(), projectId, ...body, createdAt: now, updatedAt: now };
    await this.replies.insert(reply).catch(takenOr(body.shortcut));
    return reply;
  }

  async update(projectId: string, id: string, patch: UpdateCannedReplyBody): Promise<CannedReply> {
    const set = definedFields(patch);
    // Nothing to change: the reply as it is, its updatedAt unmoved.
    if (Object.keys(set).length === 0) {
      const current = await this.replies.find(projectId, id);
      if (!current) throw notFound(id);
      return current;
    }
    const updated = await this.replies
      .update(projectId, id, { ...set, updatedAt: this.clock.now().toISOString() })
      .catch(takenOr(patch.shortcut));
    if (!updated) throw notFound(id);
    return updated;
  }

  /** NOT_FOUND for an unknown id (deleting twice answers 404 the second time). */
  async delete(projectId: string, id: string): Promise<CannedReply> {
    const reply = await this.replies.find(projectId, id);
    if (!reply || !(await this.replies.delete(projectId, id))) throw notFound(id);
    return reply;
  }
}
