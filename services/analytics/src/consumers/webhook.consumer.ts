import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ALL_CONVERSATION_EVENTS, DURABLE_CONSUMERS } from '@palaver/contracts';
import { type EventStream, logger, Ports, type StreamSubscription } from '@palaver/platform';
import { type FeedEntry, readConversationEvent } from '../domain/feed-entry.mapper';
import { WebhookDeliveryService } from '../services/webhook-delivery.service';

/** The webhooks' own durable consumer: independent of the feed's, so a slow endpoint never holds the feed back. */
export const WEBHOOK_CONSUMER = DURABLE_CONSUMERS.webhooks;

/**
 * Turns each conversation event the feed keeps into a delivery per subscribed endpoint. A batch is
 * acknowledged once its deliveries are stored and their first attempts queued; a redelivered
 * event finds its deliveries made (their ids are the event's and the endpoint's) and adds none.
 */
@Injectable()
export class WebhookConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription: StreamSubscription | null = null;

  constructor(
    @Inject(Ports.eventStream) private readonly stream: EventStream,
    @Inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.stream.subscribeBatches(
      WEBHOOK_CONSUMER,
      ALL_CONVERSATION_EVENTS,
      async (messages) => {
        const entries: FeedEntry[] = [];
        for (const message of messages) {
          const read = readConversationEvent(message.payload);
          if (read.kind === 'invalid') logger.warn({ seq: message.seq, reason: read.reason }, 'webhooks: event skipped');
          if (read.kind === 'entry') entries.push(read.entry);
        }
        await this.deliveries.fanOut(entries);
      },
      64,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }
}
