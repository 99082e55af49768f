import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InferenceMessages as M } from '@palaver/contracts';
import { assertDependenciesUp, handle } from '@palaver/platform';
import { CompletionService } from '../services/completion.service';

@Controller()
export class InferenceHandler {
  constructor(@Inject(CompletionService) private readonly completions: CompletionService) {}

  @MessagePattern(M.startCompletion.subject)
  startCompletion(@Payload() raw: unknown) {
    return handle(M.startCompletion, raw, (req) => this.completions.start(req));
  }

  @MessagePattern(M.health.subject)
  health(@Payload() raw: unknown) {
    return handle(M.health, raw, async () => {
      assertDependenciesUp();
      return { ok: true as const };
    });
  }
}
