import { type DynamicModule, Module } from '@nestjs/common';
import { AuditOutbox, type Infrastructure, portProviders } from '@palaver/platform';
import { RetentionQueueConsumer } from './consumers/retention-queue.consumer';
import { ConversationHandler } from './handlers/conversation.handler';
import { ConversationAdminHandler } from './handlers/conversation-admin.handler';
import { InboxHandler } from './handlers/inbox.handler';
import { PrivacyHandler } from './handlers/privacy.handler';
import { OutboxRelay } from './outbox/outbox.relay';
import { ConversationProjection } from './projections/conversation.projection';
import { MessageProjection } from './projections/message.projection';
import { ReadModelBarrier } from './projections/read-model.barrier';
import { ReadModelChanges } from './projections/read-model.changes';
import { ReadModelProjector } from './projections/read-model.projector';
import { AgentFeedRepository } from './repositories/agent-feed.repository';
import { ConversationRepository } from './repositories/conversation.repository';
import { ConversationCipher } from './repositories/conversation-cipher';
import { ConversationReadRepository } from './repositories/conversation-read.repository';
import { ErasureRecordRepository } from './repositories/erasure-record.repository';
import { MessageReadRepository } from './repositories/message-read.repository';
import { ReadModel } from './repositories/read-model';
import { ReplyKnowledge } from './repositories/reply-knowledge';
import { RetentionRunRepository } from './repositories/retention-run.repository';
import { AgentNoteService } from './services/agent-note.service';
import { ConversationExecutor } from './services/conversation.executor';
import { ConversationAdminQueryService } from './services/conversation-admin-query.service';
import { ConversationCommandService } from './services/conversation-command.service';
import { ConversationErasureService } from './services/conversation-erasure.service';
import { ConversationQueryService } from './services/conversation-query.service';
import { HandoffAudit } from './services/handoff-audit';
import { HandoffCommandService } from './services/handoff-command.service';
import { HandoffQueryService } from './services/handoff-query.service';
import { RetentionService } from './services/retention.service';
import { StaleReplySweeper } from './services/stale-reply.sweeper';
import { VisitorContextService } from './services/visitor-context.service';
import { VisitorExportService } from './services/visitor-export.service';

@Module({})
export class ConversationModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: ConversationModule,
      controllers: [ConversationHandler, ConversationAdminHandler, PrivacyHandler, InboxHandler],
      providers: [
        ...portProviders(infra, 'documents', 'eventStore', 'eventStream', 'jobs', 'pubsub', 'keys', 'clock', 'config', 'services'),
        ConversationCipher,
        ErasureRecordRepository,
        RetentionRunRepository,
        ConversationErasureService,
        VisitorExportService,
        RetentionService,
        RetentionQueueConsumer,
        ReadModel,
        ReadModelChanges,
        ReadModelBarrier,
        AgentFeedRepository,
        ConversationProjection,
        MessageProjection,
        ReadModelProjector,
        OutboxRelay,
        ConversationRepository,
        ConversationReadRepository,
        MessageReadRepository,
        ConversationExecutor,
        ReplyKnowledge,
        ConversationCommandService,
        ConversationQueryService,
        ConversationAdminQueryService,
        HandoffQueryService,
        AgentNoteService,
        VisitorContextService,
        HandoffCommandService,
        HandoffAudit,
        AuditOutbox,
        StaleReplySweeper,
      ],
    };
  }
}
