import { Inject, Injectable } from '@nestjs/common';
import type { AdminConversation } from '@palaver/contracts';
import { OutboxRelay } from '../outbox/outbox.relay';
import { ConversationReadRepository } from '../repositories/conversation-read.repository';
import { ConversationAdminQueryService } from './conversation-admin-query.service';

/** A visitor's conversations for their export: every one, oldest first, each with all its messages and their feedback. */
@Injectable()
export class VisitorExportService {
  constructor(
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ConversationReadRepository) private readonly reads: ConversationReadRepository,
    @Inject(ConversationAdminQueryService) private readonly admin: ConversationAdminQueryService,
  ) {}

  async conversations(projectId: string, visitorId: string): Promise<AdminConversation[]> {
    // Whatever is durable but not yet projected is exported too.
    await this.relay.flush();
    const ids = await this.reads.idsOfVisitor(projectId, visitorId);
    const result: AdminConversation[] = [];
    for (const conversationId of ids) result.push(await this.admin.get({ projectId, conversationId }));
    return result;
  }
}
