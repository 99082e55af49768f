import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { ConversationExecutor } from './conversation.executor';
import { ConversationRepository } from './conversation.repository';
import { ConversationAdminQueryService } from './conversation-admin-query.service';
import { ConversationCommandService } from './conversation-command.service';
import { ConversationQueryService } from './conversation-query.service';
import { ConversationHandler } from './handlers/conversation.handler';
import { ConversationAdminHandler } from './handlers/conversation-admin.handler';
import { HandoffService } from './handoff.service';
import { OutboxRelay } from './outbox/outbox.relay';
import { AgentFeed } from './projections/agent-feed';
import { ConversationProjection } from './projections/conversation.projection';
import { MessageProjection } from './projections/message.projection';
import { ReadModel } from './projections/read-model';
import { ReadModelBarrier } from './projections/read-model.barrier';
import { ReadModelChanges } from './projections/read-model.changes';
import { ReadModelProjector } from './projections/read-model.projector';
import { ReplyKnowledge } from './reply-knowledge';
import { StaleReplySweeper } from './stale-reply.sweeper';

@Module({})
export class ConversationModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: ConversationModule,
      controllers: [ConversationHandler, ConversationAdminHandler],
      providers: [
        ...portProviders(infra, 'documents', 'eventStore', 'eventStream', 'jobs', 'pubsub', 'clock', 'config', 'services'),
        ReadModel,
        ReadModelChanges,
        ReadModelBarrier,
        AgentFeed,
        ConversationProjection,
        MessageProjection,
        ReadModelProjector,
        OutboxRelay,
        ConversationRepository,
        ConversationExecutor,
        ReplyKnowledge,
        ConversationCommandService,
        ConversationQueryService,
        ConversationAdminQueryService,
        HandoffService,
        StaleReplySweeper,
      ],
    };
  }
}
