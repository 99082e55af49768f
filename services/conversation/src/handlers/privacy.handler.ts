import { PrivacyMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { ConversationErasureService } from '../services/conversation-erasure.service';
import { VisitorExportService } from '../services/visitor-export.service';

export const PrivacyHandler = messageHandlers(
  'PrivacyHandler',
  { erasure: ConversationErasureService, exports: VisitorExportService },
  (on) => [
    on(M.visitorConversations, async ({ exports }, req) => ({ data: await exports.conversations(req.projectId, req.visitorId) })),
    on(M.eraseVisitorConversations, ({ erasure }, req) => erasure.eraseVisitor(req)),
    on(M.eraseProjectConversations, async ({ erasure }, req) => ({ conversations: await erasure.eraseProject(req.projectId) })),
    on(M.listErasures, ({ erasure }, req) => erasure.list(req.projectId, req.offset, req.limit)),
  ],
);
