/** The inference service as `start:cluster` runs it, answering with the instant model (the bench's cluster mode). */
import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startInferenceService } from '../../services/inference/src/index';
import { InstantChatModel } from './instant.chat-model';

await runStandaloneService('inference', ['jobs', 'pubsub'], (infra) =>
  startInferenceService({ ...infra, chatModel: new InstantChatModel() }),
);
