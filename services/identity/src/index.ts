import { type Infrastructure, type RunningService, startService } from '@palaver/platform';
import { IdentityModule } from './identity.module';

export { IdentityModule } from './identity.module';

export const startIdentityService = (infra: Infrastructure): Promise<RunningService> =>
  startService('identity', IdentityModule.register(infra), infra);
