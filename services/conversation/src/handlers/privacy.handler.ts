import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PrivacyMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { ConversationErasureService } from '../services/conversation-erasure.service';
import { VisitorExportService } from '../services/visitor-export.service';

@Controller()
export class PrivacyHandler {
  constructor(
    @Inject(ConversationErasureService) private readonly erasure: ConversationErasureService,
    @Inject(VisitorExportService) private readonly exports: VisitorExportService,
  ) {}

  @MessagePattern(M.visitorConversations.subject)
  visitorConversations(@Payload() raw: unknown) {
    return handle(M.visitorConversations, raw, async (req) => ({ data: await this.exports.conversations(req.projectId, req.visitorId) }));
  }

  @MessagePattern(M.eraseVisitorConversations.subject)
  eraseVisitor(@Payload() raw: unknown) {
    return handle(M.eraseVisitorConversations, raw, (req) => this.erasure.eraseVisitor(req));
  }

  @MessagePattern(M.eraseProjectConversations.subject)
  eraseProject(@Payload() raw: unknown) {
    return handle(M.eraseProjectConversations, raw, async (req) => ({ conversations: await this.erasure.eraseProject(req.projectId) }));
  }

  @MessagePattern(M.listErasures.subject)
  listErasures(@Payload() raw: unknown) {
    return handle(M.listErasures, raw, (req) => this.erasure.list(req.projectId, req.offset, req.limit));
  }
}
