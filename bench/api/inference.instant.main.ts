/** The inference service as `start:cluster` runs it (services/inference/src/main.ts), answering with the instant model. */
import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startInferenceService } from '../../services/inference/src/index';
import { InstantChatModel } from './instant.chat-model';

await runStandaloneService('inference', ['jobs', 'pubsub', 'replyLog'], (infra) =>
  startInferenceService({ ...infra, chatModel: new InstantChatModel() }),
);
