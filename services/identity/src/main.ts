import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startIdentityService } from './index';

await runStandaloneService('identity', ['documents', 'kv', 'pubsub'], startIdentityService);
