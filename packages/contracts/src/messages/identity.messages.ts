import { z } from 'zod';
import {
  AssistantRecord,
  CreateAssistantBody,
  CreatedIdentitySecret,
  CreatedKey,
  CreateKeyBody,
  CreateProjectBody,
  KeyRecord,
  KeyType,
  ProjectRecord,
  UpdateAssistantBody,
  UpdateProjectBody,
} from '../admin/project.admin';
import { AgentInfo, AgentRecord, CreateAgentBody, CreatedAgent } from '../agents/agent';
import { Uuid } from '../common';
import { AppUserId, Customer, UpsertCustomerBody } from '../surface-b/surface-b';
import { Contact } from '../v2/contact';
import { MAX_USER_TOKEN, Visitor } from '../v2/visitor';
import { ActorField } from './accounts.messages';
import { Ack, defineMessage } from './define';

/** Origin header of the browser request, when there was one; keys with allowed origins check it. */
const Origin = z.string().nullable();

export const SessionInfo = z.object({
  projectId: Uuid,
  visitorId: Uuid,
  keyId: Uuid,
  assistantId: Uuid.nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const KeyInfo = z.object({ projectId: Uuid, keyId: Uuid, type: KeyType, assistantId: Uuid.nullable() });
export type KeyInfo = z.infer<typeof KeyInfo>;

export const IdentityMessages = {
  /**
   * The device's anonymous visitor in the key's project, or with a user token the identified
   * visitor it names, with a new session. The caller has resolved the publishable key
   * (`resolveKey`, which checks it is live and admits the origin): the gateway through its
   * cache, so an init costs no second key lookup. INVALID_USER_TOKEN for a token that does not
   * verify; USER_TOKEN_REQUIRED without one when the project requires identity verification.
   */
  initVisitor: defineMessage(
    'identity.cmd.init-visitor.v2',
    z.object({
      key: KeyInfo.extend({ type: z.literal('publishable') }),
      saVid: z.string(),
      userToken: z.string().max(MAX_USER_TOKEN).nullable().optional(),
    }),
    z.object({ created: z.boolean(), sessionToken: z.string(), visitor: Visitor }),
  ),
  /** Resolves a session token and extends its idle timeout. UNAUTHORIZED when unknown, expired or its key revoked. */
  resolveSession: defineMessage('identity.qry.resolve-session.v1', z.object({ token: z.string(), origin: Origin }), SessionInfo),
  /**
   * How long until the session lapses unless used, without extending it (what a live stream's
   * expiry is scheduled by: a stream open is not a use). UNAUTHORIZED when unknown, expired or its key revoked.
   */
  sessionExpiry: defineMessage(
    'identity.qry.session-expiry.v1',
    z.object({ token: z.string() }),
    z.object({ expiresInMs: z.number().int().min(0) }),
  ),
  /** UNAUTHORIZED for an unknown or revoked key; FORBIDDEN for the wrong type or a disallowed origin. */
  resolveKey: defineMessage('identity.qry.resolve-key.v1', z.object({ key: z.string(), origin: Origin, type: KeyType }), KeyInfo),
  /** For CORS preflight: is this origin allowed by any live publishable key (or by the given key)? */
  checkOrigin: defineMessage(
    'identity.qry.check-origin.v1',
    z.object({ origin: z.string(), apiKey: z.string().nullable() }),
    z.object({ allowed: z.boolean() }),
  ),
  getVisitor: defineMessage('identity.qry.get-visitor.v1', z.object({ projectId: Uuid, visitorId: Uuid }), Visitor),
  /** Keeps the contact a visitor left on the visitor (the latest one wins). */
  setVisitorContact: defineMessage(
    'identity.cmd.set-visitor-contact.v1',
    z.object({ projectId: Uuid, visitorId: Uuid, contact: Contact }),
    Visitor,
  ),
  getProject: defineMessage('identity.qry.get-project.v1', z.object({ projectId: Uuid }), ProjectRecord),
  listProjects: defineMessage('identity.qry.list-projects.v1', z.object({}), z.object({ data: z.array(ProjectRecord) })),
  /** The ids of deleted projects, whose data the retention run erases should an erasure have stopped half-way. */
  listDeletedProjects: defineMessage(
    'identity.qry.list-deleted-projects.v1',
    z.object({}),
    z.object({ data: z.array(z.object({ id: Uuid, deletedAt: z.string() })) }),
  ),
  /**
   * Deletes a project (docs/accounts.md): marked deleted, its keys, sessions and agents revoked on
   * every gateway, its memberships and canned replies gone, before it answers; its conversations
   * and knowledge are erased after. PROJECT_NOT_FOUND when unknown or already deleted.
   */
  deleteProject: defineMessage('identity.cmd.delete-project.v1', z.object({ actor: ActorField, projectId: Uuid }), Ack),
  createProject: defineMessage('identity.cmd.create-project.v1', CreateProjectBody.extend({ actor: ActorField }), ProjectRecord),
  updateProject: defineMessage(
    'identity.cmd.update-project.v1',
    z.object({ actor: ActorField, projectId: Uuid, patch: UpdateProjectBody }),
    ProjectRecord,
  ),
  /** ASSISTANT_NOT_FOUND when the id is not one of the project's; null id gives the project's default. */
  getAssistant: defineMessage(
    'identity.qry.get-assistant.v1',
    z.object({ projectId: Uuid, assistantId: Uuid.nullable() }),
    AssistantRecord,
  ),
  listAssistants: defineMessage(
    'identity.qry.list-assistants.v1',
    z.object({ projectId: Uuid }),
    z.object({ data: z.array(AssistantRecord) }),
  ),
  createAssistant: defineMessage(
    'identity.cmd.create-assistant.v1',
    z.object({ actor: ActorField, projectId: Uuid, body: CreateAssistantBody }),
    AssistantRecord,
  ),
  updateAssistant: defineMessage(
    'identity.cmd.update-assistant.v1',
    z.object({ actor: ActorField, projectId: Uuid, assistantId: Uuid, patch: UpdateAssistantBody }),
    AssistantRecord,
  ),
  /** Creates the project's identity secret, or replaces it (the previous one verifies tokens 24 h more). */
  rotateIdentitySecret: defineMessage(
    'identity.cmd.rotate-identity-secret.v1',
    z.object({ actor: ActorField, projectId: Uuid }),
    CreatedIdentitySecret,
  ),
  createKey: defineMessage('identity.cmd.create-key.v1', z.object({ actor: ActorField, projectId: Uuid, body: CreateKeyBody }), CreatedKey),
  listKeys: defineMessage('identity.qry.list-keys.v1', z.object({ projectId: Uuid }), z.object({ data: z.array(KeyRecord) })),
  revokeKey: defineMessage('identity.cmd.revoke-key.v1', z.object({ actor: ActorField, projectId: Uuid, keyId: Uuid }), KeyRecord),
  createAgent: defineMessage(
    'identity.cmd.create-agent.v1',
    z.object({ actor: ActorField, projectId: Uuid, body: CreateAgentBody }),
    CreatedAgent,
  ),
  listAgents: defineMessage('identity.qry.list-agents.v1', z.object({ projectId: Uuid }), z.object({ data: z.array(AgentRecord) })),
  /** Also hands back to the assistant every open conversation the agent holds (answers once done; idempotent). */
  revokeAgent: defineMessage('identity.cmd.revoke-agent.v1', z.object({ actor: ActorField, projectId: Uuid, agentId: Uuid }), AgentRecord),
  /** UNAUTHORIZED for a malformed, unknown or revoked agent token. */
  resolveAgent: defineMessage('identity.qry.resolve-agent.v1', z.object({ token: z.string().max(200) }), AgentInfo),
  /** Surface B: creates or updates the identified visitor with this appUserId (VALIDATION_ERROR past the attribute bound). */
  upsertCustomer: defineMessage(
    'identity.cmd.upsert-customer.v1',
    z.object({ projectId: Uuid, appUserId: AppUserId, body: UpsertCustomerBody }),
    Customer,
  ),
  /** NOT_FOUND when the project has no identified visitor with this appUserId. */
  getCustomer: defineMessage('identity.qry.get-customer.v1', z.object({ projectId: Uuid, appUserId: AppUserId }), Customer),
  health: defineMessage('identity.qry.health.v1', z.object({}), Ack),
} as const;
