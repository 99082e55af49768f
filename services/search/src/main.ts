import 'reflect-metadata';
import { runStandaloneService } from '@palaver/platform';
import { startSearchService } from './index';

await runStandaloneService('search', ['documents', 'vectors', 'embedder', 'jobs'], startSearchService, (infra) => ({
  embedder: infra.embedder.name,
}));
