import { type Infrastructure, type RunningService, startService } from '@palaver/platform';
import { InferenceModule } from './inference.module';

export { InferenceModule } from './inference.module';

/** The inference service: answers startCompletion and runs the inference queue's jobs. */
export const startInferenceService = (infra: Infrastructure): Promise<RunningService> =>
  startService('inference', InferenceModule.register(infra), infra);
