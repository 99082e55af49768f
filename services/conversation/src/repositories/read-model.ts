import { Inject, Injectable } from '@nestjs/common';
import type {
  Contact,
  ConversationStatus,
  Feedback,
  FinishReason,
  HumanAgentRef,
  MessageMetadata,
  MessageRole,
  MessageStatus,
  TextPart,
  Usage,
} from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports, type WithId } from '@palaver/platform';

export interface ConversationDoc extends WithId {
  projectId: string;
  visitorId: string;
  status: ConversationStatus;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closeReason: string | null;
  lastInteractionAt: string;
  title: string | null;
  isHumanHandled: boolean;
  humanAgent: HumanAgentRef | null;
  handoffAt: string | null;
  handoffStatus: 'none' | 'waiting' | 'claimed';
  /** When the conversation entered the queue (its place in it). */
  handoffRequestedAt?: string | null;
  pageUrl: string | null;
  lastMessageId: string | null;
  messageCount: number;
  /** The email (and name) the visitor left; absent until then. */
  contact?: Contact;
  /** Version of the last event of the stream applied to this document. */
  version: number;
}

export interface MessageDoc extends WithId {
  projectId: string;
  conversationId: string;
  visitorId: string;
  role: MessageRole;
  parts: TextPart[];
  status: MessageStatus;
  error: string | null;
  feedback: Feedback | null;
  feedbackAt: string | null;
  metadata: MessageMetadata;
  createdAt: string;
  updatedAt: string;
  /** Stream version of the event that created the message: a total order within the conversation. */
  seq: number;
  assistantId: string | null;
  /** The agent who wrote a `human_agent` message. */
  humanAgentId?: string | null;
  usage: Usage | null;
  finishReason: FinishReason | null;
  version: number;
}

const DERIVED = { durability: 'derived' } as const;

export const CONVERSATIONS = 'conversations';
export const MESSAGES = 'messages';

/**
 * The service's read-model collections, with the indexes its queries use. Both are projections
 * of the event store, so they are `derived`: the outbox relay marks events published only after
 * a `sync()` made their projection durable, and projects again whatever is not marked.
 */
@Injectable()
export class ReadModel {
  readonly conversations: Collection<ConversationDoc>;
  readonly messages: Collection<MessageDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.conversations = documents.collection<ConversationDoc>(
      CONVERSATIONS,
      [
        { keys: { projectId: 1, visitorId: 1, lastInteractionAt: -1 } },
        { keys: { projectId: 1, handoffStatus: 1, handoffRequestedAt: 1 } },
        // The export pages in creation order.
        { keys: { projectId: 1, createdAt: 1, _id: 1 } },
      ],
      DERIVED,
    );
    this.messages = documents.collection<MessageDoc>(
      MESSAGES,
      [
        { keys: { projectId: 1, conversationId: 1, seq: 1 } },
        // The stale reply sweep looks for replies still streaming.
        { keys: { status: 1, updatedAt: 1 } },
      ],
      DERIVED,
    );
  }
}
