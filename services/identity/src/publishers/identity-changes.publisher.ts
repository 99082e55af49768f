import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_CHANGES_CHANNEL, type IdentityChange } from '@palaver/contracts';
import { logger, Ports, type PubSub } from '@palaver/platform';

/** How long a change waits for every gateway and inference instance to have applied it. */
const APPLIED_EVERYWHERE_MS = 2_000;

/**
 * Announces, after the change is stored, what makes the gateways' cached credentials stale, and
 * resolves once every instance listening has dropped what it touches: a key revoked is refused
 * everywhere by the time the call that revoked it answers. Awaited by the command: when the
 * announcement fails, so does the call (revoking again is idempotent). An instance that does not
 * confirm in time (hung, or of a version before confirmations) is logged; its cache expires
 * the stale answer within its TTL.
 */
@Injectable()
export class IdentityChangesPublisher {
  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  async announce(change: IdentityChange): Promise<void> {
    const { receivers, confirmed } = await this.pubsub.publishDelivered(IDENTITY_CHANGES_CHANNEL, change, APPLIED_EVERYWHERE_MS);
    if (confirmed < receivers) {
      logger.warn(
        { change, receivers, confirmed },
        'not every instance confirmed an identity change in time; theirs expire it within their TTL',
      );
    }
  }
}
