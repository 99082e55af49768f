import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ALL_CONVERSATION_EVENTS, DURABLE_CONSUMERS } from '@palaver/contracts';
import { CoalescedSync, type DocumentStore, type EventStream, Ports, type StreamSubscription } from '@palaver/platform';
import { AnalyticsProjection } from '../projections/analytics.projection';
import { InsightsProjection } from '../projections/insights.projection';

/** Name of the durable consumer: every analytics instance shares it, so each event is handled once. */
export const ANALYTICS_CONSUMER = DURABLE_CONSUMERS.analytics;
/** Events handled (their feed entries written) together, at most: one write instead of one each. */
const ANALYTICS_BATCH = 256;
/** How long a handled batch may wait for the fsync it shares with the batches after it. */
const CHECKPOINT_DELAY_MS = 20;

/**
 * Feeds the conversation events (feedback and the conversation flow) from the durable stream
 * into the analytics projection while the service runs, in batches of those waiting. The consumer
 * resumes after its last acknowledged event on the next start; events whose handling throws are
 * delivered again.
 */
@Injectable()
export class FeedbackConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription: StreamSubscription | null = null;
  private readonly checkpoint: CoalescedSync;

  constructor(
    @Inject(Ports.eventStream) private readonly stream: EventStream,
    @Inject(AnalyticsProjection) private readonly projection: AnalyticsProjection,
    @Inject(InsightsProjection) private readonly insights: InsightsProjection,
    @Inject(Ports.documents) documents: DocumentStore,
  ) {
    this.checkpoint = new CoalescedSync(() => documents.sync(), CHECKPOINT_DELAY_MS);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.stream.subscribeBatches(
      ANALYTICS_CONSUMER,
      ALL_CONVERSATION_EVENTS,
      async (messages) => {
        const payloads = messages.map((m) => m.payload);
        await this.projection.applyBatch(payloads);
        await this.insights.applyBatch(payloads);
        // Acknowledged once on disk (the collections are derived), in one fsync with the batches near it.
        await this.checkpoint.synced();
      },
      ANALYTICS_BATCH,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }
}
