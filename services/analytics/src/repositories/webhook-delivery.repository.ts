import { Inject, Injectable } from '@nestjs/common';
import type { DeliveryStatus } from '@palaver/contracts';
import { type Collection, type DocumentStore, type Filter, findPage, insertUnlessPresent, Ports } from '@palaver/platform';

export interface StoredDelivery {
  /** Name-based on the endpoint and the event (see deliveryIdOf): one delivery per event and endpoint. */
  _id: string;
  projectId: string;
  webhookId: string;
  eventId: string;
  type: string;
  /** The exact body sent on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type AttemptOutcome = Pick<StoredDelivery, 'status' | 'attempts' | 'lastResponseStatus' | 'lastError' | 'nextAttemptAt'>;

/** Deliveries of events to webhook endpoints (`webhook_deliveries`): the state the retries run from. */
@Injectable()
export class WebhookDeliveryRepository {
  private readonly deliveries: Collection<StoredDelivery>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.deliveries = documents.collection<StoredDelivery>('webhook_deliveries', [
      { keys: { webhookId: 1, createdAt: -1 } },
      { keys: { status: 1, nextAttemptAt: 1 } },
    ]);
  }

  /** Stores the delivery unless it exists (the event read again): true when it was new. */
  insertNew(delivery: StoredDelivery): Promise<boolean> {
    return insertUnlessPresent(this.deliveries, delivery);
  }

  byId(deliveryId: string): Promise<StoredDelivery | null> {
    return this.deliveries.findOne({ _id: deliveryId });
  }

  find(webhookId: string, deliveryId: string): Promise<StoredDelivery | null> {
    return this.deliveries.findOne({ _id: deliveryId, webhookId });
  }

  list(webhookId: string, status: DeliveryStatus | undefined, limit: number, offset: number) {
    const filter: Filter = status ? { webhookId, status } : { webhookId };
    return findPage(this.deliveries, filter, { sort: { createdAt: -1, _id: 1 }, limit, offset });
  }

  /**
   * Records an attempt's outcome if no other run recorded this attempt first (a job run twice,
   * after a stall): null then, and the caller schedules nothing.
   */
  recordAttempt(deliveryId: string, attemptsBefore: number, outcome: AttemptOutcome, now: string): Promise<StoredDelivery | null> {
    return this.deliveries.findOneAndUpdate(
      { _id: deliveryId, status: 'pending', attempts: attemptsBefore },
      { $set: { ...outcome, updatedAt: now } },
    );
  }

  /** Makes the delivery pending again, due now (a resend an admin asked for). */
  reopen(deliveryId: string, now: string): Promise<StoredDelivery | null> {
    return this.deliveries.findOneAndUpdate({ _id: deliveryId }, { $set: { status: 'pending', nextAttemptAt: now, updatedAt: now } });
  }

  /** Fails every pending delivery of the endpoint (it was disabled). */
  async failPending(webhookId: string, reason: string, now: string): Promise<void> {
    await this.deliveries.updateMany(
      { webhookId, status: 'pending' },
      { $set: { status: 'failed', lastError: reason, nextAttemptAt: null, updatedAt: now } },
    );
  }

  /** Pending deliveries due before `before`: those whose attempt may have been lost. */
  overdue(before: string, limit: number): Promise<StoredDelivery[]> {
    return this.deliveries.find({ status: 'pending', nextAttemptAt: { $lte: before } }, { sort: { nextAttemptAt: 1 }, limit });
  }

  async deleteOf(webhookId: string): Promise<void> {
    await this.deliveries.deleteMany({ webhookId });
  }

  /** Everything of a deleted project; answers how many rows went. */
  deleteForProject(projectId: string): Promise<number> {
    return this.deliveries.deleteMany({ projectId });
  }
}
