import { type Infrastructure, type RunningService, startService } from '@palaver/platform';
import { ConversationModule } from './conversation.module';

export { ConversationModule } from './conversation.module';

/** Starts the conversation service; it first projects and publishes what a previous run left pending. */
export const startConversationService = (infra: Infrastructure): Promise<RunningService> =>
  startService('conversation', ConversationModule.register(infra), infra);
