import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { ApiTokenService } from '../services/api-token.service';
import { AuditService } from '../services/audit.service';
import { MembershipService } from '../services/membership.service';
import { SignInService } from '../services/sign-in.service';
import { UserService } from '../services/user.service';
import { UserSessionService } from '../services/user-session.service';

/** Users, sign-in, memberships, personal API tokens and the audit log. */
@Controller()
export class AccountsHandler {
  constructor(
    @Inject(UserService) private readonly users: UserService,
    @Inject(SignInService) private readonly signIn: SignInService,
    @Inject(UserSessionService) private readonly sessions: UserSessionService,
    @Inject(MembershipService) private readonly memberships: MembershipService,
    @Inject(ApiTokenService) private readonly apiTokens: ApiTokenService,
    @Inject(AuditService) private readonly audit: AuditService,
  ) {}

  @MessagePattern(M.createUser.subject)
  createUser(@Payload() raw: unknown) {
    return handle(M.createUser, raw, (req) => this.users.create(req.actor, req.body));
  }

  @MessagePattern(M.listUsers.subject)
  listUsers(@Payload() raw: unknown) {
    return handle(M.listUsers, raw, async () => ({ data: await this.users.list() }));
  }

  @MessagePattern(M.getUser.subject)
  getUser(@Payload() raw: unknown) {
    return handle(M.getUser, raw, (req) => this.users.get(req.userId));
  }

  @MessagePattern(M.updateUser.subject)
  updateUser(@Payload() raw: unknown) {
    return handle(M.updateUser, raw, (req) => this.users.update(req.actor, req.userId, req.patch));
  }

  @MessagePattern(M.deleteUser.subject)
  deleteUser(@Payload() raw: unknown) {
    return handle(M.deleteUser, raw, (req) => this.users.delete(req.actor, req.userId));
  }

  @MessagePattern(M.acceptInvite.subject)
  acceptInvite(@Payload() raw: unknown) {
    return handle(M.acceptInvite, raw, async (req) => {
      const user = await this.users.acceptInvite(req.token, req.password);
      return { user, session: await this.sessions.issue(user.id) };
    });
  }

  @MessagePattern(M.login.subject)
  login(@Payload() raw: unknown) {
    return handle(M.login, raw, (req) => this.signIn.login(req.email, req.password, req.address));
  }

  @MessagePattern(M.ssoLogin.subject)
  ssoLogin(@Payload() raw: unknown) {
    return handle(M.ssoLogin, raw, (req) => this.signIn.ssoLogin(req.email, req.name, req.issuer));
  }

  @MessagePattern(M.logout.subject)
  logout(@Payload() raw: unknown) {
    return handle(M.logout, raw, async (req) => {
      await this.sessions.end(req.token);
      return { ok: true as const };
    });
  }

  @MessagePattern(M.resolveUserSession.subject)
  resolveUserSession(@Payload() raw: unknown) {
    return handle(M.resolveUserSession, raw, (req) => this.sessions.resolve(req.token));
  }

  @MessagePattern(M.resolveApiToken.subject)
  resolveApiToken(@Payload() raw: unknown) {
    return handle(M.resolveApiToken, raw, (req) => this.apiTokens.resolve(req.token));
  }

  @MessagePattern(M.createApiToken.subject)
  createApiToken(@Payload() raw: unknown) {
    return handle(M.createApiToken, raw, (req) => this.apiTokens.create(req.userId, req.body.name));
  }

  @MessagePattern(M.listApiTokens.subject)
  listApiTokens(@Payload() raw: unknown) {
    return handle(M.listApiTokens, raw, async (req) => ({ data: await this.apiTokens.list(req.userId) }));
  }

  @MessagePattern(M.revokeApiToken.subject)
  revokeApiToken(@Payload() raw: unknown) {
    return handle(M.revokeApiToken, raw, (req) => this.apiTokens.revoke(req.userId, req.tokenId));
  }

  @MessagePattern(M.putMember.subject)
  putMember(@Payload() raw: unknown) {
    return handle(M.putMember, raw, (req) => this.memberships.put(req.actor, req.projectId, req.userId, req.body.role));
  }

  @MessagePattern(M.listMembers.subject)
  listMembers(@Payload() raw: unknown) {
    return handle(M.listMembers, raw, async (req) => ({ data: await this.memberships.list(req.projectId) }));
  }

  @MessagePattern(M.removeMember.subject)
  removeMember(@Payload() raw: unknown) {
    return handle(M.removeMember, raw, (req) => this.memberships.remove(req.actor, req.projectId, req.userId));
  }

  @MessagePattern(M.appendAudit.subject)
  appendAudit(@Payload() raw: unknown) {
    return handle(M.appendAudit, raw, (req) => this.audit.append(req));
  }

  @MessagePattern(M.listAudit.subject)
  listAudit(@Payload() raw: unknown) {
    return handle(M.listAudit, raw, (req) => this.audit.list(req.projectId, req.query));
  }
}
