import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { IdentityHandler } from './handlers/identity.handler';
import { IdentityChangesPublisher } from './publishers/identity-changes.publisher';
import { AgentRepository } from './repositories/agent.repository';
import { AssistantRepository } from './repositories/assistant.repository';
import { KeyRepository } from './repositories/key.repository';
import { ProjectRepository } from './repositories/project.repository';
import { SessionStore } from './repositories/session.store';
import { VisitorRepository } from './repositories/visitor.repository';
import { AgentService } from './services/agent.service';
import { AssistantService } from './services/assistant.service';
import { CustomerService } from './services/customer.service';
import { KeyService } from './services/key.service';
import { ProjectService } from './services/project.service';
import { SessionService } from './services/session.service';
import { VisitorService } from './services/visitor.service';

@Module({})
export class IdentityModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: IdentityModule,
      controllers: [IdentityHandler],
      providers: [
        ...portProviders(infra, 'documents', 'kv', 'pubsub', 'clock', 'config', 'services'),
        IdentityChangesPublisher,
        ProjectRepository,
        AssistantRepository,
        KeyRepository,
        VisitorRepository,
        SessionStore,
        ProjectService,
        AssistantService,
        KeyService,
        SessionService,
        VisitorService,
        AgentRepository,
        AgentService,
        CustomerService,
      ],
    };
  }
}
