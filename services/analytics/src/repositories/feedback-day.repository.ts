import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, insertUnlessPresent, Ports } from '@palaver/platform';
import type { DayCounts, DayCountsOf } from '../domain/feedback-summary.reducer';
import { ANALYTICS_DURABILITY } from './analytics-durability';

interface FeedbackDayDoc {
  /** `<projectId>:<YYYY-MM-DD>` */
  _id: string;
  projectId: string;
  day: string;
  likes?: number;
  dislikes?: number;
  removals?: number;
  /** Event ids counted here whose feed entry may not exist yet (see `add`). */
  pending?: string[];
}

/**
 * Feedback submissions per project and UTC day (`analytics_feedback_days`). The summary reads
 * only `removals` from here; its likes and dislikes per day come from each message's latest
 * value (MessageFeedbackRepository), the day counts of submissions being kept as they were.
 */
@Injectable()
export class FeedbackDayRepository {
  private readonly days: Collection<FeedbackDayDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.days = documents.collection<FeedbackDayDoc>('analytics_feedback_days', [{ keys: { projectId: 1, day: 1 } }], ANALYTICS_DURABILITY);
  }

  /**
   * Adds the event's counts to its day once. The increment and the event id land in the same
   * document in one update, so a retry after a crash cannot count twice. Once the event is
   * recorded as counted elsewhere (its feed entry), `settle` drops the id again, which keeps
   * `pending` down to the events in flight.
   */
  async add(projectId: string, day: string, eventId: string, delta: DayCounts): Promise<void> {
    const _id = `${projectId}:${day}`;
    await this.ensureDay(_id, projectId, day);
    await this.days.updateOne(
      { _id, pending: { $ne: eventId } },
      { $inc: { likes: delta.likes, dislikes: delta.dislikes, removals: delta.removals }, $push: { pending: eventId } },
    );
  }

  private async ensureDay(_id: string, projectId: string, day: string): Promise<void> {
    if (await this.days.findOne({ _id })) return;
    await insertUnlessPresent(this.days, { _id, projectId, day, likes: 0, dislikes: 0, removals: 0, pending: [] });
  }

  async settle(projectId: string, day: string, eventId: string): Promise<void> {
    await this.days.updateOne({ _id: `${projectId}:${day}` }, { $pull: { pending: eventId } });
  }

  async list(projectId: string): Promise<DayCountsOf[]> {
    const docs = await this.days.find({ projectId }, { sort: { day: 1 } });
    return docs.map((d) => ({ day: d.day, likes: d.likes ?? 0, dislikes: d.dislikes ?? 0, removals: d.removals ?? 0 }));
  }

  /** Everything of a deleted project; answers how many rows went. */
  deleteForProject(projectId: string): Promise<number> {
    return this.days.deleteMany({ projectId });
  }
}
