import { PrivacyMessages as M } from '@palaver/contracts';
import { messageHandlers } from '@palaver/platform';
import { ProjectKnowledgeErasureService } from '../services/project-knowledge-erasure.service';

export const ProjectErasureHandler = messageHandlers('ProjectErasureHandler', { erasure: ProjectKnowledgeErasureService }, (on) => [
  on(M.eraseProjectKnowledge, ({ erasure }, req) => erasure.erase(req.projectId)),
]);
