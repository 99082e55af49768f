import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PrivacyMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { VisitorErasureService } from '../services/visitor-erasure.service';

@Controller()
export class PrivacyHandler {
  constructor(@Inject(VisitorErasureService) private readonly erasure: VisitorErasureService) {}

  @MessagePattern(M.visitorProfile.subject)
  visitorProfile(@Payload() raw: unknown) {
    return handle(M.visitorProfile, raw, (req) => this.erasure.profile(req.projectId, req.visitor));
  }

  @MessagePattern(M.eraseVisitor.subject)
  eraseVisitor(@Payload() raw: unknown) {
    return handle(M.eraseVisitor, raw, (req) => this.erasure.erase(req.projectId, req.visitor, req.erasedBy, req.actor));
  }
}
