import { Inject, Injectable } from '@nestjs/common';
import { AGENT_FEED_CHANGES_CHANNEL, type AgentEventType } from '@palaver/contracts';
import {
  type Clock,
  type Collection,
  type DocumentStore,
  DuplicateKeyError,
  logger,
  nextSequence,
  Ports,
  type PubSub,
  type SequenceCounterDoc,
} from '@palaver/platform';
import { conversationIdOf, type StoredConversationEvent } from '../conversation.stream';
import { handoffStatusOf } from '../queries/agent.presenter';
import type { ConversationDoc } from './read-model';

/** One entry of a project's agent feed: what happened, to which conversation, who held it then. */
export interface AgentFeedDoc {
  /** The event id: an event projected twice is recorded once. */
  _id: string;
  projectId: string;
  /** Order within the project: the SSE id of `GET /agent/v1/events`. */
  seq: number;
  type: AgentEventType;
  conversationId: string;
  humanAgentId: string | null;
  messageId: string | null;
  occurredAt: string;
  /** When it was written (absent on entries written before the field existed). */
  recordedAt?: string;
}

/** How long a missing sequence holds the entries behind it back (see `untilGap`). */
export const GAP_GRACE_MS = 2_000;

/**
 * The entries (in sequence order, after `afterSeq`) up to the first missing sequence that may
 * still be filled. An entry takes its sequence before it is inserted, so of two written at once
 * the later one can be found first: a reader that moved past the missing one would never see it.
 * A sequence is given up on once the entry after it is GAP_GRACE_MS old: one taken by a racing
 * duplicate, or by a process that died before inserting, is never filled.
 */
export const untilGap = <T extends Pick<AgentFeedDoc, 'seq' | 'recordedAt'>>(entries: T[], afterSeq: number, nowMs: number): T[] => {
  let expected = afterSeq + 1;
  for (const [i, entry] of entries.entries()) {
    const recent = entry.recordedAt !== undefined && nowMs - Date.parse(entry.recordedAt) < GAP_GRACE_MS;
    if (entry.seq !== expected && recent) return entries.slice(0, i);
    expected = entry.seq + 1;
  }
  return entries;
};

/**
 * The agent feed's view of an event, given the conversation right after it: every handoff
 * transition, and the messages and closing of conversations a person handles. Conversations
 * the AI answers leave nothing here.
 */
export const agentFeedEntryOf = (
  event: StoredConversationEvent,
  after: ConversationDoc,
): Pick<AgentFeedDoc, 'type' | 'messageId'> | null => {
  const handled = handoffStatusOf(after) !== 'none';
  switch (event.type) {
    case 'HumanHandoffRequested':
      return { type: 'handoff.requested', messageId: null };
    case 'HumanHandoffClaimed':
    case 'HumanHandoffStarted':
      return { type: 'handoff.claimed', messageId: null };
    case 'HumanHandoffReleased':
      return { type: 'handoff.released', messageId: null };
    case 'HumanAgentMessagePosted':
      return { type: 'message.agent', messageId: event.data.messageId };
    case 'UserMessagePosted':
      return handled ? { type: 'message.visitor', messageId: event.data.messageId } : null;
    case 'ConversationClosed':
      return handled ? { type: 'conversation.closed', messageId: null } : null;
    default:
      return null;
  }
};

/** The `agent_feed` collection and its per-project sequence counters; each new entry is announced (AGENT_FEED_CHANGES_CHANNEL). */
@Injectable()
export class AgentFeed {
  readonly entries: Collection<AgentFeedDoc>;
  private readonly counters: Collection<SequenceCounterDoc>;

  constructor(
    @Inject(Ports.documents) documents: DocumentStore,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.pubsub) private readonly pubsub: PubSub,
  ) {
    this.entries = documents.collection<AgentFeedDoc>('agent_feed', [{ keys: { projectId: 1, seq: 1 }, unique: true }]);
    this.counters = documents.collection<SequenceCounterDoc>('agent_feed_counters');
  }

  /** Records the event once, at the end of its project's feed (a sequence taken by a racing duplicate is skipped). */
  async apply(event: StoredConversationEvent, after: ConversationDoc): Promise<void> {
    const entry = agentFeedEntryOf(event, after);
    if (!entry) return;
    if (await this.entries.findOne({ _id: event.eventId })) return;
    const seq = await nextSequence(this.counters, event.projectId);
    try {
      await this.entries.insertOne({
        _id: event.eventId,
        projectId: event.projectId,
        seq,
        ...entry,
        conversationId: conversationIdOf(event.streamId),
        humanAgentId: handoffStatusOf(after) === 'claimed' ? (after.humanAgent?.id ?? null) : null,
        occurredAt: event.occurredAt,
        recordedAt: this.clock.now().toISOString(),
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      return;
    }
    // Best effort: the agents' streams also ask every few seconds.
    await this.pubsub.publish(AGENT_FEED_CHANGES_CHANNEL, { projectId: event.projectId }).catch((err: unknown) => {
      logger.warn({ err, projectId: event.projectId }, 'could not announce an agent feed entry');
    });
  }

  /** The last sequence taken in the project's feed (0 for none): entries after it are yet to come. */
  async position(projectId: string): Promise<number> {
    return (await this.counters.findOne({ _id: projectId }))?.seq ?? 0;
  }

  /** The entries after `afterSeq`, oldest first, stopping at a sequence still being written (`untilGap`). */
  async after(projectId: string, afterSeq: number, limit: number): Promise<AgentFeedDoc[]> {
    const entries = await this.entries.find({ projectId, seq: { $gt: afterSeq } }, { sort: { seq: 1 }, limit });
    return untilGap(entries, afterSeq, this.clock.now().getTime());
  }
}
