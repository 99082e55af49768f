import { InferenceMessages as M } from '@palaver/contracts';
import { answerHealth, messageHandlers } from '@palaver/platform';
import { CompletionService } from '../services/completion.service';

export const InferenceHandler = messageHandlers('InferenceHandler', { completions: CompletionService }, (on) => [
  on(M.startCompletion, ({ completions }, req) => completions.start(req)),
  on(M.health, answerHealth),
]);
