import { type Infrastructure, type RunningService, startService } from '@palaver/platform';
import { SearchModule } from './search.module';

export { SearchModule } from './search.module';

export const startSearchService = (infra: Infrastructure): Promise<RunningService> =>
  startService('search', SearchModule.register(infra), infra);
