import { Inject, Injectable } from '@nestjs/common';
import { AGENT_FEED_CHANGES_CHANNEL } from '@palaver/contracts';
import {
  type Clock,
  type Collection,
  type DocumentStore,
  insertUnlessPresent,
  logger,
  nextSequence,
  Ports,
  type PubSub,
  type SequenceCounterDoc,
} from '@palaver/platform';
import { conversationIdOf, type StoredConversationEvent } from '../domain/conversation.stream';
import { type AgentFeedDoc, agentFeedEntryOf, untilGap } from '../projections/agent-feed.projection';
import type { ConversationDoc } from './read-model';

export const AGENT_FEED = 'agent_feed';

/** The `agent_feed` collection and its per-project sequence counters; each new entry is announced (AGENT_FEED_CHANGES_CHANNEL). */
@Injectable()
export class AgentFeedRepository {
  readonly entries: Collection<AgentFeedDoc>;
  private readonly counters: Collection<SequenceCounterDoc>;

  constructor(
    @Inject(Ports.documents) documents: DocumentStore,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.pubsub) private readonly pubsub: PubSub,
  ) {
    this.entries = documents.collection<AgentFeedDoc>(AGENT_FEED, [{ keys: { projectId: 1, seq: 1 }, unique: true }]);
    this.counters = documents.collection<SequenceCounterDoc>('agent_feed_counters');
  }

  /** Records the event once, at the end of its project's feed (a sequence taken by a racing duplicate is skipped). */
  async apply(event: StoredConversationEvent, after: ConversationDoc): Promise<void> {
    const entry = agentFeedEntryOf(event, after);
    if (!entry) return;
    if (await this.entries.findOne({ _id: event.eventId })) return;
    const seq = await nextSequence(this.counters, event.projectId);
    const recorded = await insertUnlessPresent(this.entries, {
      _id: event.eventId,
      projectId: event.projectId,
      seq,
      ...entry,
      conversationId: conversationIdOf(event.streamId),
      humanAgentId: after.handoffStatus === 'claimed' ? (after.humanAgent?.id ?? null) : null,
      occurredAt: event.occurredAt,
      recordedAt: this.clock.now().toISOString(),
    });
    if (!recorded) return;
    // Best effort: the agents' streams also ask every few seconds.
    await this.pubsub.publish(AGENT_FEED_CHANGES_CHANNEL, { projectId: event.projectId }).catch((err: unknown) => {
      logger.warn({ err, projectId: event.projectId }, 'could not announce an agent feed entry');
    });
  }

  /** Deletes the conversation's entries (erasure): a gap in the feed's old sequences holds no reader back (`untilGap`). */
  async deleteOfConversation(projectId: string, conversationId: string): Promise<void> {
    await this.entries.deleteMany({ projectId, conversationId });
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
