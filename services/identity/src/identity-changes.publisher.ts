import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_CHANGES_CHANNEL, type IdentityChange } from '@palaver/contracts';
import { Ports, type PubSub } from '@palaver/platform';

/**
 * Announces, after the change is stored, what makes the gateways' cached credentials stale. Awaited
 * by the command: when the announcement fails, so does the call (revoking again is idempotent).
 */
@Injectable()
export class IdentityChangesPublisher {
  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  announce(change: IdentityChange): Promise<void> {
    return this.pubsub.publish(IDENTITY_CHANGES_CHANNEL, change);
  }
}
