import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, DuplicateKeyError, type Filter, Ports } from '@palaver/platform';
import { anonymizedData, type FeedEntry } from '../domain/feed-entry.mapper';
import { ANALYTICS_DURABILITY } from './analytics-durability';

export interface FeedDoc {
  /** The event id: a redelivered event hits this unique key and is recorded once. */
  _id: string;
  projectId: string;
  /** Arrival order within the project (the cursor). */
  seq: number;
  type: string;
  category: string;
  conversationId: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** The per-project event feed (`analytics_events`). */
@Injectable()
export class FeedRepository {
  private readonly events: Collection<FeedDoc>;
  /** The last sequence number of each project's feed this process knows (read from the feed once). */
  private readonly ends = new Map<string, number>();

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.events = documents.collection<FeedDoc>(
      'analytics_events',
      [
        { keys: { projectId: 1, seq: 1 }, unique: true },
        { keys: { projectId: 1, type: 1, seq: 1 } },
        { keys: { projectId: 1, category: 1, seq: 1 } },
      ],
      ANALYTICS_DURABILITY,
    );
  }

  /**
   * Records the entry once, at the end of its project's feed: one write, its number one past the
   * last entry's (the unique index on it settles a race with another instance, which then makes
   * this one read the end again). A redelivered event keeps its first position. Entries are
   * numbered and written in one consumer's delivery order; instances sharing the durable consumer
   * could commit two entries of one project out of order, and a poller between the two writes
   * would step over the earlier one.
   */
  async append(entry: FeedEntry): Promise<void> {
    if (await this.events.findOne({ _id: entry.eventId })) return;
    for (;;) {
      const seq = (await this.endOf(entry.projectId)) + 1;
      this.ends.set(entry.projectId, seq);
      try {
        await this.events.insertOne(toDoc(entry, seq));
        return;
      } catch (err) {
        this.ends.delete(entry.projectId);
        if (!(err instanceof DuplicateKeyError)) throw err;
        if (await this.events.findOne({ _id: entry.eventId })) return; // a racing delivery recorded it
      }
    }
  }

  /**
   * Records the entries not recorded yet at the end of their projects' feeds, in order, each
   * project's in one write. Should a number be taken meanwhile (another instance), that project's
   * entries are recorded one by one as `append` does.
   */
  async appendMany(entries: FeedEntry[]): Promise<void> {
    if (entries.length <= 1) {
      if (entries[0]) await this.append(entries[0]);
      return;
    }
    const recorded = new Set((await this.events.find({ _id: { $in: entries.map((e) => e.eventId) } })).map((d) => d._id));
    const byProject = new Map<string, FeedEntry[]>();
    for (const entry of entries) {
      if (recorded.has(entry.eventId)) continue;
      recorded.add(entry.eventId);
      const list = byProject.get(entry.projectId);
      if (list) list.push(entry);
      else byProject.set(entry.projectId, [entry]);
    }
    for (const [projectId, list] of byProject) {
      const end = await this.endOf(projectId);
      this.ends.set(projectId, end + list.length);
      try {
        await this.events.insertMany(list.map((entry, i) => toDoc(entry, end + 1 + i)));
      } catch (err) {
        this.ends.delete(projectId);
        if (!(err instanceof DuplicateKeyError)) throw err;
        for (const entry of list) await this.append(entry);
      }
    }
  }

  private async endOf(projectId: string): Promise<number> {
    const known = this.ends.get(projectId);
    if (known !== undefined) return known;
    const [last] = await this.events.find({ projectId }, { sort: { seq: -1 }, limit: 1 });
    return last?.seq ?? 0;
  }

  /** Entries after `afterSeq`, oldest first; `type` matches a whole feed type or a category. */
  async list(projectId: string, query: { type?: string; afterSeq?: number; limit: number }): Promise<FeedDoc[]> {
    const filter: Filter = { projectId };
    if (query.afterSeq !== undefined) filter.seq = { $gt: query.afterSeq };
    if (query.type !== undefined) filter.$or = [{ type: query.type }, { category: query.type }];
    return this.events.find(filter, { sort: { seq: 1 }, limit: query.limit });
  }

  /**
   * Detaches an erased conversation's entries from it: one new random id replaces the
   * conversation's in all of them (they still count together, and lead nowhere), and their data
   * keeps only what `anonymizedData` keeps. A second call finds nothing left to change.
   */
  async anonymizeConversation(projectId: string, conversationId: string): Promise<number> {
    const entries = await this.events.find({ projectId, conversationId });
    const anonymousId = randomUUID();
    for (const entry of entries) {
      await this.events.updateOne({ _id: entry._id }, { $set: { conversationId: anonymousId, data: anonymizedData(entry.data) } });
    }
    return entries.length;
  }

  async has(projectId: string, eventId: string): Promise<boolean> {
    return (await this.events.count({ _id: eventId, projectId })) > 0;
  }

  /** Everything of a deleted project; answers how many rows went. */
  deleteForProject(projectId: string): Promise<number> {
    return this.events.deleteMany({ projectId });
  }
}

const toDoc = (entry: FeedEntry, seq: number): FeedDoc => ({
  _id: entry.eventId,
  projectId: entry.projectId,
  seq,
  type: entry.type,
  category: entry.category,
  conversationId: entry.conversationId,
  occurredAt: entry.occurredAt,
  data: entry.data,
});
