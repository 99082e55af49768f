import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConversationEvent, StoredEvent } from '@palaver/contracts';
import { type EventStore, Ports } from '@palaver/platform';
import { LRUCache } from 'lru-cache';
import { type ConversationState, fold } from '../domain/conversation.state';
import { isConversationEvent, type StoredConversationEvent, streamIdOf } from '../domain/conversation.stream';
import { ConversationCipher } from './conversation-cipher';

export interface LoadedConversation {
  state: ConversationState;
  /** The stream's version: the expected version of the next append. */
  version: number;
  /**
   * The stream's events, oldest first. Shared with the conversation's later loads, which append to
   * the same array: by the time it is read it may hold events after `version`, never other ones.
   */
  events: readonly StoredConversationEvent[];
}

/** Conversations kept folded in memory; one past this reloads its stream. */
const CACHED_CONVERSATIONS = 10_000;

/**
 * The conversation aggregate in the event store: one stream per conversation, one record per event.
 * The last version loaded or appended of each recent conversation stays in memory, so a command
 * reads (and folds) only the events appended since, by any process: usually none.
 */
@Injectable()
export class ConversationRepository {
  private readonly cache = new LRUCache<string, LoadedConversation>({ max: CACHED_CONVERSATIONS });

  constructor(
    @Inject(Ports.eventStore) private readonly store: EventStore,
    @Inject(ConversationCipher) private readonly cipher: ConversationCipher,
  ) {}

  async load(conversationId: string): Promise<LoadedConversation> {
    const cached = this.cache.get(conversationId);
    const newer = await this.cipher.open(await this.store.readStream(streamIdOf(conversationId), (cached?.version ?? 0) + 1));
    if (cached && newer.length === 0) return cached;
    return this.remember(conversationId, cached, newer);
  }

  /**
   * Appends to `loaded` (at its version); throws VersionConflictError when the stream has moved
   * on. Returns what it appended and the conversation after it.
   */
  async append(
    conversationId: string,
    loaded: LoadedConversation,
    events: ConversationEvent[],
    envelope: { projectId: string; occurredAt: string },
  ): Promise<{ appended: StoredConversationEvent[]; sealed: StoredEvent[]; after: LoadedConversation }> {
    const plain = events.map((event) => ({
      eventId: randomUUID(),
      type: event.type,
      data: event.data,
      projectId: envelope.projectId,
      occurredAt: envelope.occurredAt,
    }));
    const sealed = await this.cipher.seal(conversationId, plain);
    const stored = await this.store.append(streamIdOf(conversationId), loaded.version, sealed);
    // As stored (JSON copies) and opened, what a later load reads; the sealed fields are copies of
    // the plain ones rather than decrypted again.
    const opened = await this.cipher.openAppended(conversationId, stored, plain);
    const after = this.remember(conversationId, loaded, opened);
    return { appended: opened.filter(isConversationEvent), sealed: stored, after };
  }

  /** Drops the conversation's folded copy (its text) from memory: erasure. */
  forget(conversationId: string): void {
    this.cache.delete(conversationId);
  }

  private remember(conversationId: string, before: LoadedConversation | undefined, stored: StoredEvent[]): LoadedConversation {
    const added = stored.filter(isConversationEvent);
    const loaded: LoadedConversation = {
      state: fold(added, before?.state),
      version: stored.at(-1)?.version ?? before?.version ?? 0,
      events: before ? extended(before, added) : added,
    };
    this.cache.set(conversationId, loaded);
    return loaded;
  }
}

/**
 * `before`'s events and then `added`: appended to `before`'s own array when no other load has
 * appended to it since (the usual case, so a command copies nothing however long its
 * conversation), else in a copy of the part that is `before`'s.
 */
const extended = (before: LoadedConversation, added: StoredConversationEvent[]): readonly StoredConversationEvent[] => {
  const events = before.events as StoredConversationEvent[];
  if ((events.at(-1)?.version ?? 0) <= before.version) {
    events.push(...added);
    return events;
  }
  return [...events.filter((event) => event.version <= before.version), ...added];
};
