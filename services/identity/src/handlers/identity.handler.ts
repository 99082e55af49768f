import { IdentityMessages as M } from '@palaver/contracts';
import { answerHealth, messageHandlers } from '@palaver/platform';
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
import { audited } from './audited';

export const IdentityHandler = messageHandlers(
  'IdentityHandler',
  {
    projects: ProjectService,
    assistants: AssistantService,
    keys: KeyService,
    visitors: VisitorService,
    sessions: SessionService,
    agents: AgentService,
    customers: CustomerService,
    audit: AuditService,
    memberships: MembershipService,
    deletion: ProjectDeletionService,
  },
  (on) => [
    on(M.initVisitor, ({ visitors }, req) => visitors.init(req.key, req.saVid, req.userToken ?? null)),
    on(M.resolveSession, ({ sessions }, req) => sessions.resolve(req.token, req.origin)),
    on(M.sessionExpiry, ({ sessions }, req) => sessions.expiry(req.token)),
    on(M.resolveKey, ({ keys }, req) => keys.resolve(req.key, req.origin, req.type)),
    on(M.checkOrigin, async ({ keys }, req) => ({ allowed: await keys.isOriginAllowed(req.origin, req.apiKey) })),
    on(M.getVisitor, ({ visitors }, req) => visitors.get(req.projectId, req.visitorId)),
    on(M.setVisitorContact, ({ visitors }, req) => visitors.setContact(req.projectId, req.visitorId, req.contact)),
    on(M.getProject, ({ projects }, req) => projects.get(req.projectId)),
    on(M.listProjects, async ({ projects }) => ({ data: await projects.list() })),
    on(M.createProject, async ({ projects, audit, memberships }, { actor, ...body }) => {
      const project = await projects.create(body);
      await audit.record(actor, project.id, 'project.created', { type: 'project', id: project.id }, { name: project.name });
      await memberships.ownCreatedProject(actor, project.id);
      return project;
    }),
    on(M.updateProject, async ({ projects, audit }, req) => {
      const project = await projects.update(req.projectId, req.patch);
      const onlyWidget = Object.keys(req.patch).every((field) => field === 'chatWidgetConfig');
      const action = onlyWidget ? 'widget-settings.updated' : 'project.updated';
      await audit.record(req.actor, req.projectId, action, { type: 'project', id: req.projectId }, req.patch);
      return project;
    }),
    on(M.deleteProject, ({ deletion }, req) => deletion.delete(req.actor, req.projectId)),
    on(M.listDeletedProjects, async ({ deletion }) => ({ data: await deletion.listDeleted() })),
    on(M.rotateIdentitySecret, async ({ projects, audit }, req) => {
      const created = await projects.rotateIdentitySecret(req.projectId);
      await audit.record(req.actor, req.projectId, 'identity-secret.rotated', { type: 'project', id: req.projectId });
      return created;
    }),
    on(M.getAssistant, ({ assistants }, req) => assistants.get(req.projectId, req.assistantId)),
    on(M.listAssistants, async ({ assistants }, req) => ({ data: await assistants.list(req.projectId) })),
    on(M.updateAssistant, ({ assistants, audit }, req) =>
      audited(audit, req, 'assistant.updated', 'assistant', assistants.update(req.projectId, req.assistantId, req.patch), () => req.patch),
    ),
    on(M.createAssistant, ({ assistants, audit }, req) =>
      audited(audit, req, 'assistant.created', 'assistant', assistants.create(req.projectId, req.body), ({ name }) => ({ name })),
    ),
    on(M.createKey, ({ keys, audit }, req) =>
      audited(audit, req, 'key.created', 'key', keys.create(req.projectId, req.body), ({ type, name }) => ({ type, name })),
    ),
    on(M.listKeys, async ({ keys }, req) => ({ data: await keys.list(req.projectId) })),
    on(M.revokeKey, ({ keys, audit }, req) =>
      audited(audit, req, 'key.revoked', 'key', keys.revoke(req.projectId, req.keyId), ({ name }) => ({ name })),
    ),
    on(M.createAgent, ({ agents, audit }, req) =>
      audited(audit, req, 'agent.created', 'agent', agents.create(req.projectId, req.body), ({ name }) => ({ name })),
    ),
    on(M.listAgents, async ({ agents }, req) => ({ data: await agents.list(req.projectId) })),
    on(M.revokeAgent, ({ agents, audit }, req) =>
      audited(audit, req, 'agent.revoked', 'agent', agents.revoke(req.projectId, req.agentId), ({ name }) => ({ name })),
    ),
    on(M.resolveAgent, ({ agents }, req) => agents.resolve(req.token)),
    on(M.upsertCustomer, ({ customers }, req) => customers.upsert(req.projectId, req.appUserId, req.body)),
    on(M.getCustomer, ({ customers }, req) => customers.get(req.projectId, req.appUserId)),
    on(M.health, answerHealth),
  ],
);
