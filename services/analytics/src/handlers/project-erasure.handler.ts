import { PrivacyMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { ProjectAnalyticsErasureService } from '../services/project-analytics-erasure.service';

export const ProjectErasureHandler = messageHandlers('ProjectErasureHandler', { erasure: ProjectAnalyticsErasureService }, (on) => [
  on(M.eraseProjectAnalytics, ({ erasure }, req) => erasure.erase(req.projectId)),
]);
