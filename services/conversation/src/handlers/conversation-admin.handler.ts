import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ConversationAdminMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { ConversationAdminQueryService } from '../services/conversation-admin-query.service';

/** The dashboard's reads over a project's conversations. */
@Controller()
export class ConversationAdminHandler {
  constructor(@Inject(ConversationAdminQueryService) private readonly queries: ConversationAdminQueryService) {}

  @MessagePattern(M.list.subject)
  list(@Payload() raw: unknown) {
    return handle(M.list, raw, (req) => this.queries.list(req));
  }

  @MessagePattern(M.exportPage.subject)
  exportPage(@Payload() raw: unknown) {
    return handle(M.exportPage, raw, (req) => this.queries.exportPage(req));
  }

  @MessagePattern(M.get.subject)
  get(@Payload() raw: unknown) {
    return handle(M.get, raw, (req) => this.queries.get(req));
  }

  @MessagePattern(M.dislikedAnswers.subject)
  dislikedAnswers(@Payload() raw: unknown) {
    return handle(M.dislikedAnswers, raw, (req) => this.queries.dislikedAnswers(req));
  }

  @MessagePattern(M.visitorMessageTexts.subject)
  visitorMessageTexts(@Payload() raw: unknown) {
    return handle(M.visitorMessageTexts, raw, (req) => this.queries.visitorMessageTexts(req));
  }
}
