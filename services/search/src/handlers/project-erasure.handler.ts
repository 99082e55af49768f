import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PrivacyMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { ProjectKnowledgeErasureService } from '../services/project-knowledge-erasure.service';

@Controller()
export class ProjectErasureHandler {
  constructor(@Inject(ProjectKnowledgeErasureService) private readonly erasure: ProjectKnowledgeErasureService) {}

  @MessagePattern(M.eraseProjectKnowledge.subject)
  eraseProject(@Payload() raw: unknown) {
    return handle(M.eraseProjectKnowledge, raw, (req) => this.erasure.erase(req.projectId));
  }
}
