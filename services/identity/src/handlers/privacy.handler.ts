import { PrivacyMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { VisitorErasureService } from '../services/visitor-erasure.service';

export const PrivacyHandler = messageHandlers('PrivacyHandler', { erasure: VisitorErasureService }, (on) => [
  on(M.visitorProfile, ({ erasure }, req) => erasure.profile(req.projectId, req.visitor)),
  on(M.eraseVisitor, ({ erasure }, req) => erasure.erase(req.projectId, req.visitor, req.erasedBy, req.actor)),
]);
