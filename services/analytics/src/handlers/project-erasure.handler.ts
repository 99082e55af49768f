import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PrivacyMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { ProjectAnalyticsErasureService } from '../services/project-analytics-erasure.service';

@Controller()
export class ProjectErasureHandler {
  constructor(@Inject(ProjectAnalyticsErasureService) private readonly erasure: ProjectAnalyticsErasureService) {}

  @MessagePattern(M.eraseProjectAnalytics.subject)
  eraseProject(@Payload() raw: unknown) {
    return handle(M.eraseProjectAnalytics, raw, (req) => this.erasure.erase(req.projectId));
  }
}
