import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { AccountsHandler } from './handlers/accounts.handler';
import { IdentityHandler } from './handlers/identity.handler';
import { InboxHandler } from './handlers/inbox.handler';
import { PrivacyHandler } from './handlers/privacy.handler';
import { IdentityChangesPublisher } from './publishers/identity-changes.publisher';
import { AgentRepository } from './repositories/agent.repository';
import { ApiTokenRepository } from './repositories/api-token.repository';
import { AssistantRepository } from './repositories/assistant.repository';
import { AuditRepository } from './repositories/audit.repository';
import { CannedReplyRepository } from './repositories/canned-reply.repository';
import { InvitationRepository } from './repositories/invitation.repository';
import { KeyRepository } from './repositories/key.repository';
import { MembershipRepository } from './repositories/membership.repository';
import { ProjectRepository } from './repositories/project.repository';
import { SessionStore } from './repositories/session.store';
import { UserRepository } from './repositories/user.repository';
import { UserSessionStore } from './repositories/user-session.store';
import { VisitorRepository } from './repositories/visitor.repository';
import { AgentService } from './services/agent.service';
import { ApiTokenService } from './services/api-token.service';
import { AssistantService } from './services/assistant.service';
import { AuditService } from './services/audit.service';
import { CannedReplyService } from './services/canned-reply.service';
import { CustomerService } from './services/customer.service';
import { HeldConversations } from './services/held-conversations';
import { KeyService } from './services/key.service';
import { MembershipService } from './services/membership.service';
import { PasswordHasher } from './services/password.hasher';
import { ProjectService } from './services/project.service';
import { ProjectDeletionService } from './services/project-deletion.service';
import { SessionService } from './services/session.service';
import { SignInService } from './services/sign-in.service';
import { UserService } from './services/user.service';
import { UserSessionService } from './services/user-session.service';
import { VisitorService } from './services/visitor.service';
import { VisitorErasureService } from './services/visitor-erasure.service';

@Module({})
export class IdentityModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: IdentityModule,
      controllers: [IdentityHandler, PrivacyHandler, AccountsHandler, InboxHandler],
      providers: [
        ...portProviders(infra, 'documents', 'kv', 'pubsub', 'clock', 'config', 'services'),
        IdentityChangesPublisher,
        ProjectRepository,
        AssistantRepository,
        KeyRepository,
        VisitorRepository,
        SessionStore,
        ProjectService,
        ProjectDeletionService,
        AssistantService,
        KeyService,
        SessionService,
        VisitorService,
        AgentRepository,
        AgentService,
        CannedReplyRepository,
        CannedReplyService,
        CustomerService,
        VisitorErasureService,
        PasswordHasher,
        UserRepository,
        InvitationRepository,
        MembershipRepository,
        ApiTokenRepository,
        UserSessionStore,
        AuditRepository,
        AuditService,
        UserService,
        UserSessionService,
        SignInService,
        MembershipService,
        HeldConversations,
        ApiTokenService,
      ],
    };
  }
}
