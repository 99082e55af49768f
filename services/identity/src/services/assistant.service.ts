import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type AssistantRecord, type CreateAssistantBody, type UpdateAssistantBody } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { newAssistant } from '../domain/assistant';
import { definedFields } from '../domain/patch';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { AssistantRepository } from '../repositories/assistant.repository';
import { ProjectService } from './project.service';

export const assistantNotFound = (assistantId: string | null): AppError =>
  new AppError(
    'ASSISTANT_NOT_FOUND',
    assistantId === null ? 'the project has no default assistant' : `assistant ${assistantId} not found`,
    { assistantId },
  );

@Injectable()
export class AssistantService {
  constructor(
    @Inject(AssistantRepository) private readonly assistants: AssistantRepository,
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
  ) {}

  async create(projectId: string, body: CreateAssistantBody): Promise<AssistantRecord> {
    await this.projects.get(projectId);
    const assistant = newAssistant(projectId, randomUUID(), body, this.clock.now().toISOString());
    await this.assistants.insert(assistant);
    return assistant;
  }

  async update(projectId: string, assistantId: string, patch: UpdateAssistantBody): Promise<AssistantRecord> {
    await this.projects.get(projectId);
    const set = definedFields(patch);
    const updated = await this.assistants.set(projectId, assistantId, set);
    if (!updated) throw assistantNotFound(assistantId);
    await this.changes.announce({ kind: 'assistant-changed', projectId, assistantId });
    return updated;
  }

  async list(projectId: string): Promise<AssistantRecord[]> {
    await this.projects.get(projectId);
    return this.assistants.listByProject(projectId);
  }

  /** The project's assistant with this id, or its default one when the id is null. */
  async get(projectId: string, assistantId: string | null): Promise<AssistantRecord> {
    const id = assistantId ?? (await this.projects.get(projectId)).defaultAssistantId;
    const assistant = id === null ? null : await this.assistants.findById(projectId, id);
    if (!assistant) throw assistantNotFound(assistantId);
    return assistant;
  }
}
