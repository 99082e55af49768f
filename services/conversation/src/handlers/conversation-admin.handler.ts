import { ConversationAdminMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { ConversationAdminQueryService } from '../services/conversation-admin-query.service';

/** The dashboard's reads over a project's conversations. */
export const ConversationAdminHandler = messageHandlers('ConversationAdminHandler', { queries: ConversationAdminQueryService }, (on) => [
  on(M.list, ({ queries }, req) => queries.list(req)),
  on(M.exportPage, ({ queries }, req) => queries.exportPage(req)),
  on(M.get, ({ queries }, req) => queries.get(req)),
  on(M.dislikedAnswers, ({ queries }, req) => queries.dislikedAnswers(req)),
  on(M.visitorMessageTexts, ({ queries }, req) => queries.visitorMessageTexts(req)),
]);
