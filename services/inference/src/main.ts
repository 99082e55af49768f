import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startInferenceService } from './index';

await runStandaloneService('inference', ['jobs', 'pubsub', 'replyLog', 'chatModel'], startInferenceService, (infra) => ({
  chatModel: infra.chatModel.name,
}));
