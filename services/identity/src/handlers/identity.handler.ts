import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IdentityMessages as M } from '@palaver/contracts';
import { assertDependenciesUp, handle } from '@palaver/platform';
import { AgentService } from '../services/agent.service';
import { AssistantService } from '../services/assistant.service';
import { AuditService } from '../services/audit.service';
import { CustomerService } from '../services/customer.service';
import { KeyService } from '../services/key.service';
import { MembershipService } from '../services/membership.service';
import { ProjectService } from '../services/project.service';
import { ProjectDeletionService } from '../services/project-deletion.service';
import { SessionService } from '../services/session.service';
import { VisitorService } from '../services/visitor.service';

@Controller()
export class IdentityHandler {
  constructor(
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(AssistantService) private readonly assistants: AssistantService,
    @Inject(KeyService) private readonly keys: KeyService,
    @Inject(VisitorService) private readonly visitors: VisitorService,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(AgentService) private readonly agents: AgentService,
    @Inject(CustomerService) private readonly customers: CustomerService,
    @Inject(AuditService) private readonly audit: AuditService,
    @Inject(MembershipService) private readonly memberships: MembershipService,
    @Inject(ProjectDeletionService) private readonly deletion: ProjectDeletionService,
  ) {}

  @MessagePattern(M.initVisitor.subject)
  initVisitor(@Payload() raw: unknown) {
    return handle(M.initVisitor, raw, (req) => this.visitors.init(req.key, req.saVid, req.userToken ?? null));
  }

  @MessagePattern(M.resolveSession.subject)
  resolveSession(@Payload() raw: unknown) {
    return handle(M.resolveSession, raw, (req) => this.sessions.resolve(req.token, req.origin));
  }

  @MessagePattern(M.sessionExpiry.subject)
  sessionExpiry(@Payload() raw: unknown) {
    return handle(M.sessionExpiry, raw, (req) => this.sessions.expiry(req.token));
  }

  @MessagePattern(M.resolveKey.subject)
  resolveKey(@Payload() raw: unknown) {
    return handle(M.resolveKey, raw, (req) => this.keys.resolve(req.key, req.origin, req.type));
  }

  @MessagePattern(M.checkOrigin.subject)
  checkOrigin(@Payload() raw: unknown) {
    return handle(M.checkOrigin, raw, async (req) => ({ allowed: await this.keys.isOriginAllowed(req.origin, req.apiKey) }));
  }

  @MessagePattern(M.getVisitor.subject)
  getVisitor(@Payload() raw: unknown) {
    return handle(M.getVisitor, raw, (req) => this.visitors.get(req.projectId, req.visitorId));
  }

  @MessagePattern(M.setVisitorContact.subject)
  setVisitorContact(@Payload() raw: unknown) {
    return handle(M.setVisitorContact, raw, (req) => this.visitors.setContact(req.projectId, req.visitorId, req.contact));
  }

  @MessagePattern(M.getProject.subject)
  getProject(@Payload() raw: unknown) {
    return handle(M.getProject, raw, (req) => this.projects.get(req.projectId));
  }

  @MessagePattern(M.listProjects.subject)
  listProjects(@Payload() raw: unknown) {
    return handle(M.listProjects, raw, async () => ({ data: await this.projects.list() }));
  }

  @MessagePattern(M.createProject.subject)
  createProject(@Payload() raw: unknown) {
    return handle(M.createProject, raw, async ({ actor, ...body }) => {
      const project = await this.projects.create(body);
      await this.audit.record(actor, project.id, 'project.created', { type: 'project', id: project.id }, { name: project.name });
      await this.memberships.ownCreatedProject(actor, project.id);
      return project;
    });
  }

  @MessagePattern(M.updateProject.subject)
  updateProject(@Payload() raw: unknown) {
    return handle(M.updateProject, raw, async (req) => {
      const project = await this.projects.update(req.projectId, req.patch);
      const onlyWidget = Object.keys(req.patch).every((field) => field === 'chatWidgetConfig');
      await this.audit.record(
        req.actor,
        req.projectId,
        onlyWidget ? 'widget-settings.updated' : 'project.updated',
        {
          type: 'project',
          id: req.projectId,
        },
        req.patch,
      );
      return project;
    });
  }

  @MessagePattern(M.deleteProject.subject)
  deleteProject(@Payload() raw: unknown) {
    return handle(M.deleteProject, raw, (req) => this.deletion.delete(req.actor, req.projectId));
  }

  @MessagePattern(M.listDeletedProjects.subject)
  listDeletedProjects(@Payload() raw: unknown) {
    return handle(M.listDeletedProjects, raw, async () => ({ data: await this.deletion.listDeleted() }));
  }

  @MessagePattern(M.rotateIdentitySecret.subject)
  rotateIdentitySecret(@Payload() raw: unknown) {
    return handle(M.rotateIdentitySecret, raw, async (req) => {
      const created = await this.projects.rotateIdentitySecret(req.projectId);
      await this.audit.record(req.actor, req.projectId, 'identity-secret.rotated', { type: 'project', id: req.projectId });
      return created;
    });
  }

  @MessagePattern(M.getAssistant.subject)
  getAssistant(@Payload() raw: unknown) {
    return handle(M.getAssistant, raw, (req) => this.assistants.get(req.projectId, req.assistantId));
  }

  @MessagePattern(M.listAssistants.subject)
  listAssistants(@Payload() raw: unknown) {
    return handle(M.listAssistants, raw, async (req) => ({ data: await this.assistants.list(req.projectId) }));
  }

  @MessagePattern(M.updateAssistant.subject)
  updateAssistant(@Payload() raw: unknown) {
    return handle(M.updateAssistant, raw, async (req) => {
      const assistant = await this.assistants.update(req.projectId, req.assistantId, req.patch);
      await this.audit.record(req.actor, req.projectId, 'assistant.updated', { type: 'assistant', id: assistant.id }, req.patch);
      return assistant;
    });
  }

  @MessagePattern(M.createAssistant.subject)
  createAssistant(@Payload() raw: unknown) {
    return handle(M.createAssistant, raw, async (req) => {
      const assistant = await this.assistants.create(req.projectId, req.body);
      await this.audit.record(
        req.actor,
        req.projectId,
        'assistant.created',
        { type: 'assistant', id: assistant.id },
        { name: assistant.name },
      );
      return assistant;
    });
  }

  @MessagePattern(M.createKey.subject)
  createKey(@Payload() raw: unknown) {
    return handle(M.createKey, raw, async (req) => {
      const key = await this.keys.create(req.projectId, req.body);
      await this.audit.record(req.actor, req.projectId, 'key.created', { type: 'key', id: key.id }, { type: key.type, name: key.name });
      return key;
    });
  }

  @MessagePattern(M.listKeys.subject)
  listKeys(@Payload() raw: unknown) {
    return handle(M.listKeys, raw, async (req) => ({ data: await this.keys.list(req.projectId) }));
  }

  @MessagePattern(M.revokeKey.subject)
  revokeKey(@Payload() raw: unknown) {
    return handle(M.revokeKey, raw, async (req) => {
      const key = await this.keys.revoke(req.projectId, req.keyId);
      await this.audit.record(req.actor, req.projectId, 'key.revoked', { type: 'key', id: key.id }, { name: key.name });
      return key;
    });
  }

  @MessagePattern(M.createAgent.subject)
  createAgent(@Payload() raw: unknown) {
    return handle(M.createAgent, raw, async (req) => {
      const agent = await this.agents.create(req.projectId, req.body);
      await this.audit.record(req.actor, req.projectId, 'agent.created', { type: 'agent', id: agent.id }, { name: agent.name });
      return agent;
    });
  }

  @MessagePattern(M.listAgents.subject)
  listAgents(@Payload() raw: unknown) {
    return handle(M.listAgents, raw, async (req) => ({ data: await this.agents.list(req.projectId) }));
  }

  @MessagePattern(M.revokeAgent.subject)
  revokeAgent(@Payload() raw: unknown) {
    return handle(M.revokeAgent, raw, async (req) => {
      const agent = await this.agents.revoke(req.projectId, req.agentId);
      await this.audit.record(req.actor, req.projectId, 'agent.revoked', { type: 'agent', id: agent.id }, { name: agent.name });
      return agent;
    });
  }

  @MessagePattern(M.resolveAgent.subject)
  resolveAgent(@Payload() raw: unknown) {
    return handle(M.resolveAgent, raw, (req) => this.agents.resolve(req.token));
  }

  @MessagePattern(M.upsertCustomer.subject)
  upsertCustomer(@Payload() raw: unknown) {
    return handle(M.upsertCustomer, raw, (req) => this.customers.upsert(req.projectId, req.appUserId, req.body));
  }

  @MessagePattern(M.getCustomer.subject)
  getCustomer(@Payload() raw: unknown) {
    return handle(M.getCustomer, raw, (req) => this.customers.get(req.projectId, req.appUserId));
  }

  @MessagePattern(M.health.subject)
  health(@Payload() raw: unknown) {
    return handle(M.health, raw, async () => {
      assertDependenciesUp();
      return { ok: true as const };
    });
  }
}
