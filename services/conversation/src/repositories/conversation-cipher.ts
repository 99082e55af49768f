import { Inject, Injectable } from '@nestjs/common';
import { PERSONAL_EVENT_FIELDS, type StoredEvent } from '@palaver/contracts';
import { type Clock, EventCipher, type KeyStore, type PersonalFieldPolicy, Ports } from '@palaver/platform';
import { streamIdOf } from '../domain/conversation.stream';

/**
 * Crypto-shredding of conversations (docs/privacy.md): each conversation has its own data key,
 * named by its stream id, which seals the personal fields of its events before they are appended
 * and opens them when they are read. Erasing a conversation deletes its key: its events stay in
 * the append-only log and on the stream, unreadable. A key per conversation rather than per
 * visitor, so that retention erases one conversation and leaves the visitor's others readable.
 */
@Injectable()
export class ConversationCipher {
  private readonly cipher: EventCipher;

  constructor(@Inject(Ports.keys) keys: KeyStore, @Inject(Ports.clock) clock: Clock) {
    this.cipher = new EventCipher(keys, PERSONAL_EVENT_FIELDS as PersonalFieldPolicy, clock);
  }

  /** The events with their personal fields sealed under the conversation's key (made with its first event). */
  seal<E extends { type: string; data: unknown }>(conversationId: string, events: readonly E[]): Promise<E[]> {
    return this.cipher.seal(streamIdOf(conversationId), events);
  }

  /** What `open` gives for the conversation's events just stored from `plain` (in order), without decrypting them. */
  openAppended<E extends StoredEvent>(
    conversationId: string,
    stored: readonly E[],
    plain: readonly { type: string; data: unknown }[],
  ): Promise<E[]> {
    return this.cipher.openSealedFrom(streamIdOf(conversationId), stored, plain);
  }

  /** Stored events (of any conversations) with their personal fields opened, or erased when the key is gone. */
  async open<E extends StoredEvent>(events: readonly E[]): Promise<E[]> {
    const streams = new Map<string, E[]>();
    for (const event of events) streams.set(event.streamId, [...(streams.get(event.streamId) ?? []), event]);
    if (streams.size <= 1) return events[0] ? this.cipher.open(events[0].streamId, events) : [];
    const opened = new Map<string, E>();
    for (const [streamId, ofStream] of streams)
      for (const event of await this.cipher.open(streamId, ofStream)) opened.set(event.eventId, event);
    return events.map((event) => opened.get(event.eventId)!);
  }

  /** Deletes the conversations' keys: what they sealed reads as erased from now on. */
  erase(conversationIds: readonly string[]): Promise<void> {
    return this.cipher.erase(conversationIds.map(streamIdOf));
  }
}
