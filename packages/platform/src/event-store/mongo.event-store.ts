import type { StoredEvent } from '@palaver/contracts';
import type { Collection, Db } from 'mongodb';
import { MongoClient, MongoServerError } from 'mongodb';
import { mongoClientOptions, withRetries } from '../document-store/mongo-options';
import type { EventStore, NewEvent } from './event-store.port';
import { VersionConflictError } from './event-store.port';
import { toStoredEvents } from './stored-event';

/** One document per event; `_id` is the event id. */
interface EventDocument {
  _id: string;
  streamId: string;
  version: number;
  type: string;
  projectId: string;
  occurredAt: string;
  data: unknown;
  /** The outbox flag: false until the relay has published the event. */
  published: boolean;
  /** Global append order (from a counter), for the outbox's oldest-first order. */
  position: number;
}

interface CounterDocument {
  _id: string;
  value: number;
}

/**
 * The event store on MongoDB. A unique index on (streamId, version) makes the expected-version
 * check race-free: of two appends at the same version, the second hits a duplicate key, reported
 * as VersionConflictError.
 *
 * An append of several events is one multi-document transaction, so that it lands whole or not at
 * at all even if the process dies half way (insertMany plus compensation would leave a half-written
 * append visible to readers until the compensation ran, and for ever if the process died first).
 * Transactions need a replica set: run MongoDB as one (a single-node replica set will do). An
 * append of one event is a single insert and needs none.
 */
export class MongoEventStore implements EventStore {
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly events: Collection<EventDocument>,
    private readonly counters: Collection<CounterDocument>,
    private readonly counterId: string,
  ) {}

  static async connect(url: string, dbName: string, collectionName = 'events'): Promise<MongoEventStore> {
    const client = new MongoClient(url, mongoClientOptions);
    await client.connect();
    try {
      const db: Db = client.db(dbName);
      const events = db.collection<EventDocument>(collectionName);
      await withRetries(() => events.createIndex({ streamId: 1, version: 1 }, { unique: true, name: 'stream_version' }));
      await withRetries(() => events.createIndex({ position: 1 }, { name: 'outbox', partialFilterExpression: { published: false } }));
      return new MongoEventStore(client, events, db.collection<CounterDocument>('counters'), `${collectionName}.position`);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async append(streamId: string, expectedVersion: number, events: NewEvent[]): Promise<StoredEvent[]> {
    this.assertOpen();
    const actual = await this.currentVersion(streamId);
    if (actual !== expectedVersion) throw new VersionConflictError(streamId, expectedVersion, actual);
    if (events.length === 0) return [];
    // Positions are taken after the stream was read at its current version, so a stream's later
    // events always get larger positions than its earlier ones, whichever process appends them.
    const counter = await this.counters.findOneAndUpdate(
      { _id: this.counterId },
      { $inc: { value: events.length } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: false },
    );
    const first = counter!.value - events.length + 1;
    const docs: EventDocument[] = toStoredEvents(streamId, expectedVersion, events).map(({ eventId, ...event }, i) => ({
      _id: eventId,
      ...event,
      published: false,
      position: first + i,
    }));
    try {
      if (docs.length === 1) {
        await this.events.insertOne(docs[0]!);
      } else {
        const session = this.client.startSession();
        try {
          await session.withTransaction(async () => {
            await this.events.insertMany(docs, { session, ordered: true });
          });
        } finally {
          await session.endSession();
        }
      }
    } catch (error) {
      if (isDuplicateKey(error)) {
        // Which key collided is read from the data rather than from the error, whose shape differs
        // between a single insert and a bulk one: a stream that moved on means a lost race.
        const now = await this.currentVersion(streamId);
        if (now !== expectedVersion) throw new VersionConflictError(streamId, expectedVersion, now);
        throw new Error(`an event of this append is already stored (event ids ${events.map((e) => e.eventId).join(', ')})`);
      }
      throw error;
    }
    return docs.map(toStoredEvent);
  }

  async readStream(streamId: string, fromVersion = 1): Promise<StoredEvent[]> {
    this.assertOpen();
    const docs = await this.events
      .find({ streamId, version: { $gte: fromVersion } })
      .sort({ version: 1 })
      .toArray();
    return docs.map(toStoredEvent);
  }

  async pendingPublication(limit: number): Promise<StoredEvent[]> {
    this.assertOpen();
    const docs = await this.events.find({ published: false }).sort({ position: 1 }).limit(limit).toArray();
    return docs.map(toStoredEvent);
  }

  async markPublished(eventIds: string[]): Promise<void> {
    this.assertOpen();
    if (eventIds.length === 0) return;
    await this.events.updateMany({ _id: { $in: eventIds }, published: false }, { $set: { published: true } });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  private async currentVersion(streamId: string): Promise<number> {
    const last = await this.events.findOne({ streamId }, { sort: { version: -1 }, projection: { version: 1 } });
    return last?.version ?? 0;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

const isDuplicateKey = (error: unknown): boolean =>
  (error instanceof MongoServerError && error.code === 11000) || (error as { code?: unknown })?.code === 11000;

const toStoredEvent = (doc: EventDocument): StoredEvent => ({
  eventId: doc._id,
  streamId: doc.streamId,
  version: doc.version,
  type: doc.type,
  projectId: doc.projectId,
  occurredAt: doc.occurredAt,
  data: doc.data,
});
