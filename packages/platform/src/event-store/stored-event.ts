import type { StoredEvent } from '@palaver/contracts';
import { jsonCopy } from '../json/json-copy';
import type { NewEvent } from './event-store.port';

/**
 * The events of one append as stored: versions after `expectedVersion`, data copied as JSON so
 * that what a reader gets is the same in every adapter and after a restart.
 */
export const toStoredEvents = (streamId: string, expectedVersion: number, events: NewEvent[]): StoredEvent[] =>
  events.map((event, i) => ({
    eventId: event.eventId,
    streamId,
    version: expectedVersion + i + 1,
    type: event.type,
    projectId: event.projectId,
    occurredAt: event.occurredAt,
    data: event.data === undefined ? null : jsonCopy(event.data),
  }));
