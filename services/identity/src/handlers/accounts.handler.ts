import { AccountMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { ApiTokenService } from '../services/api-token.service';
import { AuditService } from '../services/audit.service';
import { MembershipService } from '../services/membership.service';
import { SignInService } from '../services/sign-in.service';
import { UserService } from '../services/user.service';
import { UserSessionService } from '../services/user-session.service';

/** Users, sign-in, memberships, personal API tokens and the audit log. */
export const AccountsHandler = messageHandlers(
  'AccountsHandler',
  {
    users: UserService,
    signIn: SignInService,
    sessions: UserSessionService,
    memberships: MembershipService,
    apiTokens: ApiTokenService,
    audit: AuditService,
  },
  (on) => [
    on(M.createUser, ({ users }, req) => users.create(req.actor, req.body)),
    on(M.listUsers, async ({ users }) => ({ data: await users.list() })),
    on(M.getUser, ({ users }, req) => users.get(req.userId)),
    on(M.updateUser, ({ users }, req) => users.update(req.actor, req.userId, req.patch)),
    on(M.deleteUser, ({ users }, req) => users.delete(req.actor, req.userId)),
    on(M.acceptInvite, async ({ users, sessions }, req) => {
      const user = await users.acceptInvite(req.token, req.password);
      return { user, session: await sessions.issue(user.id) };
    }),
    on(M.login, ({ signIn }, req) => signIn.login(req.email, req.password, req.address)),
    on(M.ssoLogin, ({ signIn }, req) => signIn.ssoLogin(req.email, req.name, req.issuer)),
    on(M.logout, async ({ sessions }, req) => {
      await sessions.end(req.token);
      return { ok: true as const };
    }),
    on(M.resolveUserSession, ({ sessions }, req) => sessions.resolve(req.token)),
    on(M.resolveApiToken, ({ apiTokens }, req) => apiTokens.resolve(req.token)),
    on(M.createApiToken, ({ apiTokens }, req) => apiTokens.create(req.userId, req.body.name)),
    on(M.listApiTokens, async ({ apiTokens }, req) => ({ data: await apiTokens.list(req.userId) })),
    on(M.revokeApiToken, ({ apiTokens }, req) => apiTokens.revoke(req.userId, req.tokenId)),
    on(M.putMember, ({ memberships }, req) => memberships.put(req.actor, req.projectId, req.userId, req.body.role)),
    on(M.listMembers, async ({ memberships }, req) => ({ data: await memberships.list(req.projectId) })),
    on(M.removeMember, ({ memberships }, req) => memberships.remove(req.actor, req.projectId, req.userId)),
    on(M.appendAudit, ({ audit }, req) => audit.append(req)),
    on(M.listAudit, ({ audit }, req) => audit.list(req.projectId, req.query)),
  ],
);
