import type { StoredEvent } from '@palaver/contracts';

/** An event ready to append: its id and time chosen by the caller, its version by the store. */
export interface NewEvent {
  eventId: string;
  type: string;
  data: unknown;
  projectId: string;
  occurredAt: string;
}

export class VersionConflictError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`stream ${streamId} is at version ${actualVersion}, expected ${expectedVersion}`);
    this.name = 'VersionConflictError';
  }
}

/**
 * Append-only event log, one stream per aggregate, one record per event.
 * An acknowledged append is durable (survives kill -9). Also the outbox: every appended
 * event is pending publication until `markPublished`.
 */
export interface EventStore {
  /** Appends atomically when the stream is at `expectedVersion` (0 = new stream); else VersionConflictError. */
  append(streamId: string, expectedVersion: number, events: NewEvent[]): Promise<StoredEvent[]>;
  /** The stream's events in version order, from `fromVersion` (inclusive, default 1). */
  readStream(streamId: string, fromVersion?: number): Promise<StoredEvent[]>;
  /** Events not yet marked published, oldest append first. */
  pendingPublication(limit: number): Promise<StoredEvent[]>;
  markPublished(eventIds: string[]): Promise<void>;
  close(): Promise<void>;
}
