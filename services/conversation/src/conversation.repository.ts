import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConversationEvent } from '@palaver/contracts';
import { type EventStore, Ports } from '@palaver/platform';
import { isConversationEvent, type StoredConversationEvent, streamIdOf } from './conversation.stream';
import { type ConversationState, fold } from './domain/conversation.state';

export interface LoadedConversation {
  state: ConversationState;
  /** The stream's version: the expected version of the next append. */
  version: number;
  events: StoredConversationEvent[];
}

/** The conversation aggregate in the event store: one stream per conversation, one record per event. */
@Injectable()
export class ConversationRepository {
  constructor(@Inject(Ports.eventStore) private readonly store: EventStore) {}

  async load(conversationId: string): Promise<LoadedConversation> {
    const stored = await this.store.readStream(streamIdOf(conversationId));
    const events = stored.filter(isConversationEvent);
    return { state: fold(events), version: stored.at(-1)?.version ?? 0, events };
  }

  /** Appends at `expectedVersion`; throws VersionConflictError when the stream has moved on. */
  async append(
    conversationId: string,
    expectedVersion: number,
    events: ConversationEvent[],
    envelope: { projectId: string; occurredAt: string },
  ): Promise<StoredConversationEvent[]> {
    const stored = await this.store.append(
      streamIdOf(conversationId),
      expectedVersion,
      events.map((event) => ({
        eventId: randomUUID(),
        type: event.type,
        data: event.data,
        projectId: envelope.projectId,
        occurredAt: envelope.occurredAt,
      })),
    );
    return stored.filter(isConversationEvent);
  }
}
