import { Inject, Injectable } from '@nestjs/common';
import { replaceIfUnchanged } from '@palaver/platform';
import { conversationIdOf, type StoredConversationEvent } from '../domain/conversation.stream';
import { conversationTitle } from '../domain/conversation.title';
import { type ConversationDoc, ReadModel } from '../repositories/read-model';

/** Races with another relay resolve in a try or two; more means something else is wrong. */
const MAX_ATTEMPTS = 10;

/**
 * The conversation document after `event`. Returns `doc` itself when the event is already in it
 * (its version is not newer) or when there is no document for it to change.
 */
export const applyToConversation = (doc: ConversationDoc | null, event: StoredConversationEvent): ConversationDoc | null => {
  if (event.type === 'ConversationStarted') {
    if (doc) return doc;
    return {
      _id: conversationIdOf(event.streamId),
      projectId: event.data.projectId,
      visitorId: event.data.visitorId,
      status: 'open',
      createdAt: event.occurredAt,
      updatedAt: event.occurredAt,
      closedAt: null,
      closeReason: null,
      lastInteractionAt: event.occurredAt,
      title: null,
      isHumanHandled: false,
      humanAgent: null,
      handoffAt: null,
      handoffStatus: 'none',
      handoffRequestedAt: null,
      pageUrl: event.data.pageUrl,
      lastMessageId: null,
      messageCount: 0,
      version: event.version,
    };
  }
  if (!doc || event.version <= doc.version) return doc;

  const base: ConversationDoc = { ...doc, updatedAt: event.occurredAt, version: event.version };
  const newMessage = (messageId: string): ConversationDoc => ({
    ...base,
    lastMessageId: messageId,
    lastInteractionAt: event.occurredAt,
    messageCount: doc.messageCount + 1,
  });
  switch (event.type) {
    case 'UserMessagePosted':
      return { ...newMessage(event.data.messageId), title: doc.title ?? conversationTitle(event.data.content) };
    case 'AssistantReplyStarted':
      return newMessage(event.data.messageId);
    case 'AssistantReplyCompleted':
    case 'AssistantReplyFailed':
      return { ...base, lastInteractionAt: event.occurredAt };
    case 'MessageFeedbackGiven':
    case 'ConversationRated':
      return base;
    case 'ConversationClosed':
      return { ...base, status: 'closed', closedAt: event.occurredAt, closeReason: event.data.closeReason };
    case 'HumanHandoffRequested':
      return {
        ...base,
        isHumanHandled: true,
        humanAgent: null,
        handoffStatus: 'waiting',
        handoffRequestedAt: event.occurredAt,
      };
    case 'HumanHandoffClaimed':
      return { ...base, isHumanHandled: true, humanAgent: event.data.humanAgent, handoffAt: event.occurredAt, handoffStatus: 'claimed' };
    case 'HumanHandoffReleased':
      return { ...base, isHumanHandled: false, humanAgent: null, handoffStatus: 'none', handoffRequestedAt: null };
    case 'AssistantReplyRestarted':
      return { ...base, lastInteractionAt: event.occurredAt };
    case 'HumanAgentMessagePosted':
      return newMessage(event.data.messageId);
    case 'ContactCaptured': {
      // The new key first: a key added after a spread slows every read of the document (docs/architecture.md).
      const { contact: _previous, ...rest } = base;
      return { contact: { email: event.data.email, name: event.data.name, capturedAt: event.occurredAt }, ...rest };
    }
    case 'AgentNoteAdded':
      // Only the version moves: nothing the visitor reads (not even updatedAt) tells of a note.
      return { ...doc, version: event.version };
    case 'ConversationErased':
      // The projector then deletes the documents (ReadModelProjector.purge).
      return base;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/** Writes `applyToConversation` to the `conversations` collection, safely beside other relays. */
@Injectable()
export class ConversationProjection {
  constructor(@Inject(ReadModel) private readonly readModel: ReadModel) {}

  /** The conversation's document as it stands (null when it has none yet). */
  current(event: StoredConversationEvent): Promise<ConversationDoc | null> {
    return this.readModel.conversations.findOne({ _id: conversationIdOf(event.streamId), projectId: event.projectId });
  }

  /** Deletes the conversation's document (erasure). */
  async delete(projectId: string, conversationId: string): Promise<void> {
    await this.readModel.conversations.deleteOne({ _id: conversationId, projectId });
  }

  /** Returns the document as it stands after the event (null when the conversation has none). */
  async apply(event: StoredConversationEvent): Promise<ConversationDoc | null> {
    return (await this.applyAll([event]))[0] ?? null;
  }

  /**
   * Applies events of one conversation, in order, with a single write; returns the document as it
   * stands after each of them (null where the conversation has none). `read`: the document as the
   * caller just read it (`current`), tried first; when another writer moved it on since, it is read again.
   */
  async applyAll(events: readonly StoredConversationEvent[], read?: ConversationDoc | null): Promise<Array<ConversationDoc | null>> {
    const first = events[0];
    if (!first) return [];
    const collection = this.readModel.conversations;
    const id = conversationIdOf(first.streamId);
    for (let attempt = 1; ; attempt++) {
      const current = attempt === 1 && read !== undefined ? read : await collection.findOne({ _id: id, projectId: first.projectId });
      const after: Array<ConversationDoc | null> = [];
      let next = current;
      for (const event of events) {
        next = applyToConversation(next, event) ?? next;
        after.push(next);
      }
      if (next === current || next === null) return after;
      // Only over the version we read: another relay may have moved it on meanwhile; then read again.
      if (await replaceIfUnchanged(collection, next, current && { version: current.version })) return after;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`conversation ${id}: projection of ${first.eventId} did not settle`);
    }
  }
}
