import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentInfo,
  type AgentRecord,
  AppError,
  ConversationMessages,
  type CreateAgentBody,
  type CreatedAgent,
} from '@palaver/contracts';
import { type Clock, Ports, type ServiceClient } from '@palaver/platform';
import { AGENT_TOKEN_RANDOM_BYTES, formatAgentToken, isAgentToken } from '../domain/agent-token';
import { keyHint } from '../domain/api-key';
import { hashSecret } from '../domain/secret-hash';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { AgentRepository } from '../repositories/agent.repository';
import { ProjectService } from './project.service';
import { secureRandomBytes } from './random-bytes';

const invalidToken = (): AppError => new AppError('UNAUTHORIZED', 'agent token is invalid or has been revoked');

/** The project's human agents: each is a person with a token for the agents' API. */
@Injectable()
export class AgentService {
  constructor(
    @Inject(AgentRepository) private readonly agents: AgentRepository,
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
    @Inject(Ports.services) private readonly services: ServiceClient,
  ) {}

  /** The only time the token exists outside the caller: it is stored as its SHA-256. */
  async create(projectId: string, body: CreateAgentBody): Promise<CreatedAgent> {
    await this.projects.get(projectId);
    const token = formatAgentToken(secureRandomBytes(AGENT_TOKEN_RANDOM_BYTES));
    const record: AgentRecord = {
      id: randomUUID(),
      projectId,
      name: body.name,
      email: body.email ?? null,
      image: body.image ?? null,
      hint: keyHint(token),
      createdAt: this.clock.now().toISOString(),
      revokedAt: null,
    };
    await this.agents.insert(record, hashSecret(token));
    return { ...record, token };
  }

  async list(projectId: string): Promise<AgentRecord[]> {
    await this.projects.get(projectId);
    return this.agents.listByProject(projectId);
  }

  /**
   * Idempotent: revoking a revoked agent answers it with its first revocation time. Answers once
   * every gateway has ended the agent's live feeds and the conversation service has handed what
   * the agent held back to the assistant (a revoked agent can no longer answer, and nobody else
   * could take them). When either fails so does the call, and revoking again finishes the job.
   */
  async revoke(projectId: string, agentId: string): Promise<AgentRecord> {
    const revoked = await this.agents.revoke(projectId, agentId, this.clock.now().toISOString());
    if (!revoked) throw new AppError('NOT_FOUND', `agent ${agentId} not found`, { resource: 'agent', agentId });
    await this.changes.announce({ kind: 'agent-revoked', projectId, agentId });
    await this.services.send(ConversationMessages.releaseHeld, { projectId, humanAgentId: agentId });
    return revoked;
  }

  /** Revokes every live agent of a project, each as a single revocation is. */
  async revokeAll(projectId: string): Promise<void> {
    for (const agentId of await this.agents.liveIds(projectId)) await this.revoke(projectId, agentId);
  }

  /** Checked on every call of the agents' API, so a revocation takes effect at once. */
  async resolve(token: string): Promise<AgentInfo> {
    if (!isAgentToken(token)) throw invalidToken();
    const agent = await this.agents.findByHash(hashSecret(token));
    if (!agent || agent.revokedAt !== null) throw invalidToken();
    return { agentId: agent.id, projectId: agent.projectId, name: agent.name, image: agent.image };
  }
}
