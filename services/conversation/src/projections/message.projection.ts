import { Inject, Injectable } from '@nestjs/common';
import type { MessageMetadata, PageContext } from '@palaver/contracts';
import { replaceIfUnchanged } from '@palaver/platform';
import { conversationIdOf, type StoredConversationEvent } from '../domain/conversation.stream';
import { type MessageDoc, ReadModel } from '../repositories/read-model';

/** Races with another relay resolve in a try or two; more means something else is wrong. */
const MAX_ATTEMPTS = 10;

const NO_METADATA: MessageMetadata = { humanAgent: null, pageUrl: null, pageTitle: null, textSelection: null };

export const metadataOf = (pageContext: PageContext | null): MessageMetadata => ({
  ...NO_METADATA,
  pageUrl: pageContext?.url ?? null,
  pageTitle: pageContext?.title ?? null,
  textSelection: pageContext?.textSelection ?? null,
});

/** Whether each kind of event is about one message (its data names it) or about the conversation itself. */
const ABOUT_A_MESSAGE = {
  UserMessagePosted: true,
  AssistantReplyStarted: true,
  AssistantReplyCompleted: true,
  AssistantReplyFailed: true,
  MessageFeedbackGiven: true,
  HumanAgentMessagePosted: true,
  AssistantReplyRestarted: true,
  ConversationStarted: false,
  ConversationRated: false,
  ConversationClosed: false,
  HumanHandoffRequested: false,
  HumanHandoffClaimed: false,
  HumanHandoffReleased: false,
  ConversationErased: false,
  ContactCaptured: false,
  AgentNoteAdded: false,
} as const satisfies Record<StoredConversationEvent['type'], boolean>;

type MessageEventType = {
  [K in keyof typeof ABOUT_A_MESSAGE]: (typeof ABOUT_A_MESSAGE)[K] extends true ? K : never;
}[keyof typeof ABOUT_A_MESSAGE];

/** An event that creates or changes one message. */
export type MessageEvent = Extract<StoredConversationEvent, { type: MessageEventType }>;

const isMessageEvent = (event: StoredConversationEvent): event is MessageEvent => ABOUT_A_MESSAGE[event.type];

/** The message an event creates or changes; null for events about the conversation itself. */
export const messageIdOf = (event: StoredConversationEvent): string | null => (isMessageEvent(event) ? event.data.messageId : null);

/** What a message document takes from its conversation. */
export interface MessageOwner {
  visitorId: string;
}

/**
 * The document of the event's message after `event`. Returns `doc` itself when the event is
 * already in it or is about another message (or none), and null for a change to a message that
 * has no document.
 */
export const applyToMessage = (doc: MessageDoc | null, event: StoredConversationEvent, owner: MessageOwner): MessageDoc | null => {
  if (!isMessageEvent(event)) return doc;
  if (doc && (event.version <= doc.version || event.data.messageId !== doc._id)) return doc;
  // Listed, not spread: no keys after a spread on the hot path (docs/architecture.md, "No keys added after a spread").
  const created = (fields: Pick<MessageDoc, '_id' | 'role' | 'parts' | 'status' | 'metadata' | 'assistantId'>): MessageDoc =>
    doc ?? {
      _id: fields._id,
      role: fields.role,
      parts: fields.parts,
      status: fields.status,
      metadata: fields.metadata,
      assistantId: fields.assistantId,
      projectId: event.projectId,
      conversationId: conversationIdOf(event.streamId),
      visitorId: owner.visitorId,
      error: null,
      feedback: null,
      feedbackAt: null,
      createdAt: event.occurredAt,
      updatedAt: event.occurredAt,
      seq: event.version,
      usage: null,
      finishReason: null,
      version: event.version,
    };
  const changed = (change: Partial<MessageDoc>): MessageDoc | null =>
    doc ? { ...doc, ...change, updatedAt: event.occurredAt, version: event.version } : doc;

  switch (event.type) {
    case 'UserMessagePosted':
      return created({
        _id: event.data.messageId,
        role: 'user',
        parts: [{ type: 'text', text: event.data.content }],
        status: 'complete',
        metadata: metadataOf(event.data.pageContext),
        assistantId: null,
      });
    case 'AssistantReplyStarted':
      return created({
        _id: event.data.messageId,
        role: 'assistant',
        parts: [{ type: 'text', text: '' }],
        status: 'streaming',
        metadata: NO_METADATA,
        assistantId: event.data.assistantId,
      });
    case 'HumanAgentMessagePosted': {
      const message = created({
        _id: event.data.messageId,
        role: 'human_agent',
        parts: [{ type: 'text', text: event.data.content }],
        status: 'complete',
        metadata: { ...NO_METADATA, humanAgent: event.data.humanAgent },
        assistantId: null,
      });
      return message && { ...message, humanAgentId: event.data.humanAgentId ?? null };
    }
    case 'AssistantReplyRestarted':
      return changed({
        parts: [{ type: 'text', text: '' }],
        status: 'streaming',
        error: null,
        usage: null,
        finishReason: null,
        assistantId: event.data.assistantId,
      });
    case 'AssistantReplyCompleted':
      return changed({
        parts: [{ type: 'text', text: event.data.text }],
        status: 'complete',
        error: null,
        usage: event.data.usage,
        finishReason: event.data.finishReason,
        ...(event.data.sources && doc ? { metadata: { ...doc.metadata, sources: event.data.sources } } : {}),
      });
    case 'AssistantReplyFailed': {
      const text = event.data.partialText.length > 0 ? event.data.partialText : (doc?.parts[0]?.text ?? '');
      return changed({ parts: [{ type: 'text', text }], status: 'error', error: event.data.error, finishReason: 'error' });
    }
    case 'MessageFeedbackGiven':
      return changed({
        feedback: event.data.feedback,
        feedbackAt: event.data.feedback === null ? null : event.occurredAt,
      });
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/** Writes `applyToMessage` to the `messages` collection, safely beside other relays. */
@Injectable()
export class MessageProjection {
  constructor(@Inject(ReadModel) private readonly readModel: ReadModel) {}

  /** Deletes the conversation's messages (erasure). */
  async deleteOfConversation(projectId: string, conversationId: string): Promise<void> {
    await this.readModel.messages.deleteMany({ projectId, conversationId });
  }

  async apply(event: StoredConversationEvent, owner: MessageOwner): Promise<void> {
    const messageId = messageIdOf(event);
    if (messageId === null) return;
    const collection = this.readModel.messages;
    for (let attempt = 1; ; attempt++) {
      const current = await collection.findOne({ _id: messageId, projectId: event.projectId });
      const next = applyToMessage(current, event, owner);
      if (next === current || next === null) return;
      if (await replaceIfUnchanged(collection, next, current && { version: current.version })) return;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`message ${messageId}: projection of ${event.eventId} did not settle`);
    }
  }
}
