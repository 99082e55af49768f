import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { AgentRepository } from './agent.repository';
import { AgentService } from './agent.service';
import { AssistantRepository } from './assistant.repository';
import { AssistantService } from './assistant.service';
import { CustomerService } from './customer.service';
import { IdentityHandler } from './handlers/identity.handler';
import { IdentityChangesPublisher } from './identity-changes.publisher';
import { KeyRepository } from './key.repository';
import { KeyService } from './key.service';
import { ProjectRepository } from './project.repository';
import { ProjectService } from './project.service';
import { SessionService } from './session.service';
import { SessionStore } from './session.store';
import { VisitorRepository } from './visitor.repository';
import { VisitorService } from './visitor.service';

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
