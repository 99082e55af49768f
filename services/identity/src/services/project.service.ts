import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type CreatedIdentitySecret,
  type CreateProjectBody,
  type ProjectRecord,
  type UpdateProjectBody,
} from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { defaultAssistant } from '../domain/assistant';
import { formatIdentitySecret, IDENTITY_SECRET_RANDOM_BYTES, rotatedSecrets } from '../domain/identity-secret';
import { newProject, projectPatchUpdate } from '../domain/project';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { AssistantRepository } from '../repositories/assistant.repository';
import { ProjectRepository } from '../repositories/project.repository';
import { secureRandomBytes } from './random-bytes';

/** Requiring verification before there is a secret would refuse every visitor: a token cannot be signed yet. */
const secretNeeded = (): AppError =>
  new AppError('VALIDATION_ERROR', 'create an identity secret before requiring identity verification', {
    field: 'identityVerification.required',
    reason: 'the project has no identity secret',
  });

/** Concurrent rotations: each tries from what it read, this many times, before answering CONFLICT. */
const ROTATION_ATTEMPTS = 3;

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
    if (body.identityVerification?.required) throw secretNeeded();
    const now = this.clock.now().toISOString();
    const projectId = randomUUID();
    const assistant = defaultAssistant(projectId, randomUUID(), now);
    const project = newProject(body, { projectId, defaultAssistantId: assistant.id, newId: randomUUID }, now);
    await this.assistants.insert(assistant);
    await this.projects.insert(project);
    return project;
  }

  async update(projectId: string, patch: UpdateProjectBody): Promise<ProjectRecord> {
    if (patch.identityVerification?.required) {
      const verification = await this.projects.findVerification(projectId);
      if (!verification) throw projectNotFound(projectId);
      if (!verification.secrets) throw secretNeeded();
    }
    const updated = await this.projects.update(projectId, projectPatchUpdate(patch, randomUUID, this.clock.now().toISOString()));
    if (!updated) throw projectNotFound(projectId);
    await this.changes.announce({ kind: 'project-changed', projectId });
    return updated;
  }

  /**
   * A new identity secret for the project, answered only here. The one it replaces keeps
   * verifying tokens for PREVIOUS_SECRET_GRACE_MS (by the Clock port), one before it no longer.
   */
  async rotateIdentitySecret(projectId: string): Promise<CreatedIdentitySecret> {
    for (let attempt = 0; attempt < ROTATION_ATTEMPTS; attempt++) {
      const verification = await this.projects.findVerification(projectId);
      if (!verification) throw projectNotFound(projectId);
      const now = this.clock.now();
      const secrets = rotatedSecrets(verification.secrets, formatIdentitySecret(secureRandomBytes(IDENTITY_SECRET_RANDOM_BYTES)), now);
      if (await this.projects.replaceSecrets(projectId, verification.secrets, secrets, now.toISOString())) {
        await this.changes.announce({ kind: 'project-changed', projectId });
        return {
          secret: secrets.current.secret,
          createdAt: secrets.current.createdAt,
          previousSecretValidUntil: secrets.previous?.validUntil ?? null,
        };
      }
    }
    throw new AppError('CONFLICT', 'the identity secret was rotated concurrently; try again', {
      resource: 'identity-secret',
      conflictingField: 'secret',
    });
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
