import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { StoredEvent } from '@palaver/contracts';
import { eventSubject } from '@palaver/contracts';
import { type DocumentStore, DrainLoop, type EventStore, type EventStream, logger, Ports, SerialQueue } from '@palaver/platform';
import { isConversationEvent } from '../domain/conversation.stream';
import { ReadModelProjector } from '../projections/read-model.projector';
import { ConversationCipher } from '../repositories/conversation-cipher';

const BATCH = 100;
/** How long events a command projected and published may wait to be marked (one sync and one mark for them all). */
const CHECKPOINT_DELAY_MS = 20;
/** Also picks up what another instance appended and could not publish (it crashed, the stream was down). */
const SWEEP_INTERVAL_MS = 5_000;

/**
 * The outbox: events leave the event store for the read models and the durable stream only
 * after their append committed, in append order, each published under its event id (so a
 * second publication after a crash is dropped by the stream), then marked published once the
 * documents are synced (the read models are `derived`: written before their fsync), so that an
 * event whose projection a power loss could take back is never marked and is projected again.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop = new DrainLoop(() => this.drain(), 'conversation outbox', SWEEP_INTERVAL_MS);
  /** Events projected and published by their commands, waiting for the next checkpoint. */
  private toMark: string[] = [];
  private checkpointTimer: NodeJS.Timeout | null = null;
  private checkpoints = new SerialQueue();
  /** Publications started by commands and not yet finished. */
  private readonly publishing = new Set<Promise<void>>();

  constructor(
    @Inject(Ports.eventStore) private readonly store: EventStore,
    @Inject(Ports.eventStream) private readonly stream: EventStream,
    @Inject(Ports.documents) private readonly documents: DocumentStore,
    @Inject(ReadModelProjector) private readonly projector: ReadModelProjector,
    @Inject(ConversationCipher) private readonly cipher: ConversationCipher,
  ) {}

  /**
   * Resolves once everything pending when it was called is projected and published. Drains run
   * one at a time; callers arriving before the next drain starts share it.
   */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** Flushes, logging instead of throwing: the events are safe in the store and the sweep retries. */
  flushQuietly(): Promise<void> {
    return this.loop.flushQuietly();
  }

  /**
   * Publishes events a command just appended, one after the other without waiting in between (the
   * stream keeps their order), and returns the ids of those published: all of them, or the prefix
   * before a failure (logged; the rest stays pending for the sweep, and a later copy of one
   * published here is dropped by the stream as a duplicate message id).
   */
  private async publishQuietly(events: readonly StoredEvent[]): Promise<string[]> {
    const results = await Promise.allSettled(events.map((event) => this.stream.publish(eventSubject(event.type), event, event.eventId)));
    const failed = results.findIndex((result) => result.status === 'rejected');
    if (failed !== -1)
      logger.error({ err: (results[failed] as PromiseRejectedResult).reason }, 'conversation outbox: publication failed, will retry');
    return (failed === -1 ? events : events.slice(0, failed)).map((event) => event.eventId);
  }

  /**
   * Publishes a command's events now (so in the order commands call it) without holding the
   * command up, and marks them once `projected` (its projection) is true too.
   */
  publishInBackground(events: readonly StoredEvent[], projected: Promise<boolean>): void {
    const publication = Promise.all([this.publishQuietly(events), projected]).then(([published, ok]) => {
      if (ok) this.markLater(published);
    });
    this.publishing.add(publication);
    void publication.finally(() => this.publishing.delete(publication));
  }

  /**
   * Marks events projected and published at the next checkpoint, CHECKPOINT_DELAY_MS from the
   * first of them: the documents are synced, then all of them marked in one write. Until then a
   * crash leaves them pending, and they are projected and published again (harmlessly).
   */
  private markLater(eventIds: readonly string[]): void {
    if (eventIds.length === 0) return;
    this.toMark.push(...eventIds);
    this.checkpointTimer ??= setTimeout(() => {
      this.checkpointTimer = null;
      void this.checkpoint();
    }, CHECKPOINT_DELAY_MS);
  }

  /** Syncs the documents and marks what waited for it; a failure leaves the events pending for the sweep. */
  private checkpoint(): Promise<void> {
    return this.checkpoints.run(async () => {
      const ids = this.toMark;
      this.toMark = [];
      if (ids.length === 0) return;
      try {
        await this.documents.sync();
        await this.store.markPublished(ids);
      } catch (err) {
        logger.error({ err }, 'conversation outbox: could not mark events published, will retry');
      }
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Crash recovery: whatever was appended but not published before the last stop.
    await this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.publishing);
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    await this.checkpoint();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = await this.store.pendingPublication(BATCH);
      if (batch.length === 0) return;
      // Projected opened; published as stored, sealed (docs/privacy.md: the stream cannot forget).
      const opened = await this.cipher.open(batch);
      const published: string[] = [];
      try {
        for (const [i, event] of batch.entries()) {
          const readable = opened[i]!;
          if (isConversationEvent(readable)) await this.projector.apply(readable);
          await this.stream.publish(eventSubject(event.type), event, event.eventId);
          published.push(event.eventId);
        }
      } finally {
        if (published.length > 0) {
          await this.documents.sync();
          await this.store.markPublished(published);
        }
      }
      if (batch.length < BATCH) return;
    }
  }
}
