import { startAnalyticsService } from '@palaver/analytics';
import { startConversationService } from '@palaver/conversation';
import { startIdentityService } from '@palaver/identity';
import { startInferenceService } from '@palaver/inference';
import type { Infrastructure, RunningService } from '@palaver/platform';
import { startSearchService } from '@palaver/search';

/** Every service, each a Nest microservice on the shared transport. */
export const startAllServices = async (infra: Infrastructure): Promise<RunningService[]> => {
  const running: RunningService[] = [];
  for (const start of [startIdentityService, startSearchService, startConversationService, startInferenceService, startAnalyticsService]) {
    running.push(await start(infra));
  }
  return running;
};
