import { z } from 'zod';
import { Actor, ADMIN_TOKEN_ACTOR, AuditEntry, AuditPage, AuditQuery, RelayedAuditEntry } from '../accounts/audit';
import {
  AcceptInviteBody,
  ApiTokenRecord,
  CreateApiTokenBody,
  CreatedApiToken,
  CreatedUser,
  CreateUserBody,
  LoginBody,
  Me,
  Member,
  Membership,
  PutMemberBody,
  UpdateUserBody,
  UserRecord,
} from '../accounts/user';
import { Uuid } from '../common';
import { Ack, defineMessage } from './define';

/** Who made the change; absent only for calls that are not the admin API's (the launcher's demo seed). */
export const ActorField = Actor.default(ADMIN_TOKEN_ACTOR);

/** A signed-in person's session: the opaque token for the cookie, and its idle lifetime. */
export const UserSession = z.object({ token: z.string(), idleSeconds: z.number().int().positive() });
export type UserSession = z.infer<typeof UserSession>;

/** Who a session or a personal API token belongs to, with their roles. */
export const Principal = z.object({ me: Me, tokenId: Uuid.nullable() });
export type Principal = z.infer<typeof Principal>;

export const AccountMessages = {
  createUser: defineMessage('identity.cmd.create-user.v1', z.object({ actor: ActorField, body: CreateUserBody }), CreatedUser),
  listUsers: defineMessage('identity.qry.list-users.v1', z.object({}), z.object({ data: z.array(UserRecord) })),
  getUser: defineMessage('identity.qry.get-user.v1', z.object({ userId: Uuid }), UserRecord),
  updateUser: defineMessage(
    'identity.cmd.update-user.v1',
    z.object({ actor: ActorField, userId: Uuid, patch: UpdateUserBody }),
    UserRecord,
  ),
  /** Also removes the user's memberships, sessions and API tokens. */
  deleteUser: defineMessage('identity.cmd.delete-user.v1', z.object({ actor: ActorField, userId: Uuid }), UserRecord),
  /** Sets the password of an invited user once (UNAUTHORIZED for a used, expired or unknown token) and signs them in. */
  acceptInvite: defineMessage('identity.cmd.accept-invite.v1', AcceptInviteBody, z.object({ user: UserRecord, session: UserSession })),
  /**
   * UNAUTHORIZED for a wrong email or password alike; RATE_LIMIT_EXCEEDED (details.retryAfter)
   * after too many failures for the account or from the address.
   */
  login: defineMessage(
    'identity.cmd.login.v1',
    LoginBody.extend({ address: z.string().max(100) }),
    z.object({ user: UserRecord, session: UserSession }),
  ),
  /** A user matched (or created) by a verified email from single sign-on, signed in. */
  ssoLogin: defineMessage(
    'identity.cmd.sso-login.v1',
    z.object({ email: z.string(), name: z.string().max(200), issuer: z.string().max(2000) }),
    z.object({ user: UserRecord, session: UserSession }),
  ),
  logout: defineMessage('identity.cmd.logout.v1', z.object({ token: z.string().max(200) }), Ack),
  /** Resolves a session cookie and extends its idle expiry. UNAUTHORIZED when unknown, lapsed or its user deleted. */
  resolveUserSession: defineMessage('identity.qry.resolve-user-session.v1', z.object({ token: z.string().max(200) }), Principal),
  /** Resolves a `pat_` token. UNAUTHORIZED when malformed, unknown, revoked or its user deleted. */
  resolveApiToken: defineMessage('identity.qry.resolve-api-token.v1', z.object({ token: z.string().max(200) }), Principal),
  createApiToken: defineMessage('identity.cmd.create-api-token.v1', z.object({ userId: Uuid, body: CreateApiTokenBody }), CreatedApiToken),
  listApiTokens: defineMessage('identity.qry.list-api-tokens.v1', z.object({ userId: Uuid }), z.object({ data: z.array(ApiTokenRecord) })),
  revokeApiToken: defineMessage('identity.cmd.revoke-api-token.v1', z.object({ userId: Uuid, tokenId: Uuid }), ApiTokenRecord),
  /** Creates or changes a membership. CONFLICT when it would leave the project without an owner. */
  putMember: defineMessage(
    'identity.cmd.put-member.v1',
    z.object({ actor: ActorField, projectId: Uuid, userId: Uuid, body: PutMemberBody }),
    Membership,
  ),
  listMembers: defineMessage('identity.qry.list-members.v1', z.object({ projectId: Uuid }), z.object({ data: z.array(Member) })),
  removeMember: defineMessage('identity.cmd.remove-member.v1', z.object({ actor: ActorField, projectId: Uuid, userId: Uuid }), Membership),
  /**
   * The reusable way for any service to append to the audit log (its audit outbox relays here).
   * Idempotent by `id`: an id already in the log answers the stored entry and appends nothing.
   */
  appendAudit: defineMessage('identity.cmd.append-audit.v1', RelayedAuditEntry, AuditEntry),
  listAudit: defineMessage('identity.qry.list-audit.v1', z.object({ projectId: Uuid, query: AuditQuery }), AuditPage),
} as const;
