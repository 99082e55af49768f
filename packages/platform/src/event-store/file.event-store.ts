import { join } from 'node:path';
import type { StoredEvent } from '@palaver/contracts';
import { copyJsonValue } from '../json/json-copy';
import { JsonlLog } from '../storage/jsonl-log';
import type { EventStore, NewEvent } from './event-store.port';
import { VersionConflictError } from './event-store.port';
import { toStoredEvents } from './stored-event';

/**
 * One line per append call (all its events), so a torn write loses the whole append and never a
 * part of it; and one line per `markPublished` call.
 */
type LogRecord = { t: 'append'; events: StoredEvent[] } | { t: 'published'; ids: string[] };

const LOG_FILE = 'events.jsonl';

/**
 * The embedded event store: an append-only JSONL file in `dir`, fsynced before an append
 * resolves, replayed into memory on open. An append is checked and applied in memory as it is
 * called, so of two appends at the same expected version exactly one wins.
 */
export class FileEventStore implements EventStore {
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly eventIds = new Set<string>();
  /** Not yet published, in append order (a Map keeps insertion order). */
  private readonly pending = new Map<string, StoredEvent>();
  private closed = false;

  private constructor(private readonly log: JsonlLog<LogRecord>) {}

  static async open(dir: string): Promise<FileEventStore> {
    const { log, records } = await JsonlLog.open<LogRecord>(join(dir, LOG_FILE));
    const store = new FileEventStore(log);
    for (const record of records) {
      if (record.t === 'append') store.apply(record.events);
      else for (const id of record.ids) store.pending.delete(id);
    }
    return store;
  }

  /**
   * Checked, queued on the log and applied in memory at once, in call order; resolves once
   * fsynced. Appends do not wait for each other's fsync: those made in one turn of the event loop
   * go out in one write, and those made while it is under way share the next (group commit, see
   * JsonlLog). Reads wait for the appends before them to be durable.
   */
  async append(streamId: string, expectedVersion: number, events: NewEvent[]): Promise<StoredEvent[]> {
    this.assertOpen();
    const actual = this.streams.get(streamId)?.length ?? 0;
    if (actual !== expectedVersion) throw new VersionConflictError(streamId, expectedVersion, actual);
    if (events.length === 0) {
      await this.log.durable();
      return [];
    }
    const seen = new Set<string>();
    for (const event of events) {
      if (this.eventIds.has(event.eventId) || seen.has(event.eventId)) throw new Error(`event ${event.eventId} is already stored`);
      seen.add(event.eventId);
    }
    const stored = toStoredEvents(streamId, expectedVersion, events);
    const durable = this.log.append([{ t: 'append', events: stored }]);
    this.apply(stored);
    const copies = stored.map(copy);
    await durable;
    return copies;
  }

  async readStream(streamId: string, fromVersion = 1): Promise<StoredEvent[]> {
    this.assertOpen();
    const events = (this.streams.get(streamId) ?? []).slice(Math.max(0, fromVersion - 1)).map(copy);
    await this.settled();
    return events;
  }

  async pendingPublication(limit: number): Promise<StoredEvent[]> {
    this.assertOpen();
    const result: StoredEvent[] = [];
    for (const event of this.pending.values()) {
      if (result.length >= limit) break;
      result.push(copy(event));
    }
    await this.settled();
    return result;
  }

  async markPublished(eventIds: string[]): Promise<void> {
    this.assertOpen();
    const ids = [...new Set(eventIds)].filter((id) => this.pending.has(id));
    if (ids.length === 0) return this.log.durable();
    const durable = this.log.append([{ t: 'published', ids }]);
    for (const id of ids) this.pending.delete(id);
    await durable;
  }

  /** What a read sees is durable: it waits for the appends in flight (at once when there are none). */
  private async settled(): Promise<void> {
    if (this.log.pending) await this.log.durable();
  }

  /** Appends made before it are written first: the log writes what is queued before it closes (once). */
  async close(): Promise<void> {
    this.closed = true;
    await this.log.close();
  }

  private apply(events: StoredEvent[]): void {
    for (const event of events) {
      let stream = this.streams.get(event.streamId);
      if (!stream) {
        stream = [];
        this.streams.set(event.streamId, stream);
      }
      stream.push(event);
      this.eventIds.add(event.eventId);
      this.pending.set(event.eventId, event);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/** Stored events hold JSON values only (toStoredEvents). */
const copy = (event: StoredEvent): StoredEvent => copyJsonValue(event);
