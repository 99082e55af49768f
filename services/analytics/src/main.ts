import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startAnalyticsService } from './index';

await runStandaloneService('analytics', ['documents', 'eventStream', 'jobs'], startAnalyticsService);
