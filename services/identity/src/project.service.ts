import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type CreateProjectBody, type ProjectRecord, type UpdateProjectBody } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { AssistantRepository } from './assistant.repository';
import { defaultAssistant } from './domain/assistant';
import { newProject, projectPatchUpdate } from './domain/project';
import { IdentityChangesPublisher } from './identity-changes.publisher';
import { ProjectRepository } from './project.repository';

export const projectNotFound = (projectId: string): AppError =>
  new AppError('PROJECT_NOT_FOUND', `project ${projectId} not found`, { projectId });

@Injectable()
export class ProjectService {
  constructor(
    @Inject(ProjectRepository) private readonly projects: ProjectRepository,
    @Inject(AssistantRepository) private readonly assistants: AssistantRepository,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
  ) {}

  /** Creates the project with its default assistant (inserted first: a crash in between leaves only an unused assistant). */
  async create(body: CreateProjectBody): Promise<ProjectRecord> {
    const now = this.clock.now().toISOString();
    const projectId = randomUUID();
    const assistant = defaultAssistant(projectId, randomUUID(), now);
    const project = newProject(body, { projectId, defaultAssistantId: assistant.id, newId: randomUUID }, now);
    await this.assistants.insert(assistant);
    await this.projects.insert(project);
    return project;
  }

  async update(projectId: string, patch: UpdateProjectBody): Promise<ProjectRecord> {
    const updated = await this.projects.update(projectId, projectPatchUpdate(patch, randomUUID, this.clock.now().toISOString()));
    if (!updated) throw projectNotFound(projectId);
    await this.changes.announce({ kind: 'project-changed', projectId });
    return updated;
  }

  async get(projectId: string): Promise<ProjectRecord> {
    const project = await this.projects.findById(projectId);
    if (!project) throw projectNotFound(projectId);
    return project;
  }

  async list(): Promise<ProjectRecord[]> {
    return this.projects.list();
  }
}
