import { Inject, Injectable } from '@nestjs/common';
import { CONVERSATION_CHANGES_CHANNEL, type ConversationChange } from '@palaver/contracts';
import { Ports, type PubSub } from '@palaver/platform';

/**
 * Announces, once a visitor's read models are written, that the gateways' cached reads of that
 * visitor are stale. Awaited by the projection, so a command answers only after its announcement
 * left; a failed announcement fails the projection, which the outbox relay then redoes.
 *
 * The announcements asked for in one turn of the event loop go out at its end, one per visitor:
 * each was asked for once its writes were done, so one publication after all of them covers them
 * all. A visitor whose conversations change in several commands at once (a busy widget, the
 * bench's writers) costs one publication a turn instead of one per command.
 */
@Injectable()
export class ReadModelChanges {
  private pending: Map<string, Announcement> | null = null;

  constructor(@Inject(Ports.pubsub) private readonly pubsub: PubSub) {}

  announce(change: ConversationChange): Promise<void> {
    if (!this.pending) {
      this.pending = new Map();
      setImmediate(() => this.flush());
    }
    const key = `${change.projectId}\n${change.visitorId}`;
    let announcement = this.pending.get(key);
    if (!announcement) {
      announcement = new Announcement(change);
      this.pending.set(key, announcement);
    }
    return announcement.sent;
  }

  private flush(): void {
    const due = this.pending;
    this.pending = null;
    for (const announcement of due?.values() ?? []) announcement.send(this.pubsub);
  }
}

/** One visitor's announcement of a turn, and what its askers wait for. */
class Announcement {
  readonly sent: Promise<void>;
  private settle!: (publication: Promise<void>) => void;

  constructor(private readonly change: ConversationChange) {
    this.sent = new Promise((resolve) => (this.settle = resolve));
  }

  send(pubsub: PubSub): void {
    this.settle(pubsub.publish(CONVERSATION_CHANGES_CHANNEL, { projectId: this.change.projectId, visitorId: this.change.visitorId }));
  }
}
