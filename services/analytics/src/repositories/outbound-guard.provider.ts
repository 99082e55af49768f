import type { Provider } from '@nestjs/common';
import { type Config, outboundGuardFromConfig, Ports } from '@palaver/platform';

/** The analytics service's outbound guard: webhook URLs are checked with it and delivered through it. */
export const WEBHOOK_OUTBOUND_GUARD = 'WebhookOutboundGuard';
export const WEBHOOK_USER_AGENT = 'Palaver-Webhooks/1.0';

export const webhookOutboundGuardProvider: Provider = {
  provide: WEBHOOK_OUTBOUND_GUARD,
  inject: [Ports.config],
  useFactory: (config: Config) => outboundGuardFromConfig(config, WEBHOOK_USER_AGENT),
};
