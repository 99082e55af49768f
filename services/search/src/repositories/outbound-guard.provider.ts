import type { Provider } from '@nestjs/common';
import { type Config, outboundGuardFromConfig, Ports } from '@palaver/platform';
import { CRAWLER_USER_AGENT } from '../domain/crawl.settings';

/** The search service's outbound guard (crawls, and URL checks when a source is made). */
export const OUTBOUND_GUARD = 'OutboundGuard';

export const outboundGuardProvider: Provider = {
  provide: OUTBOUND_GUARD,
  inject: [Ports.config],
  useFactory: (config: Config) => outboundGuardFromConfig(config, CRAWLER_USER_AGENT),
};
