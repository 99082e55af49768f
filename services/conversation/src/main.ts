import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startConversationService } from './index';

await runStandaloneService('conversation', ['documents', 'eventStore', 'eventStream', 'jobs', 'pubsub', 'keys'], startConversationService);
