import { Inject, Injectable } from '@nestjs/common';
import { type AnalyticsMessages, AppError, type RequestOf, type ResponseOf } from '@palaver/contracts';
import { decodeCursor, encodeCursor } from '../domain/feed.cursor';
import { FeedRepository } from '../repositories/feed.repository';

type ListEvents = typeof AnalyticsMessages.listEvents;

@Injectable()
export class FeedService {
  constructor(@Inject(FeedRepository) private readonly feed: FeedRepository) {}

  /**
   * Events after `after`, oldest first. `nextCursor` is the cursor of the last event returned; when
   * nothing is newer it is the `after` given (null without one), so a client polling with
   * `after = nextCursor` keeps its place and never skips nor repeats an event.
   */
  async listEvents(request: RequestOf<ListEvents>): Promise<ResponseOf<ListEvents>> {
    const afterSeq = request.after === undefined ? undefined : decodeCursor(request.after);
    if (afterSeq === null) {
      throw new AppError('VALIDATION_ERROR', 'after is not a cursor returned by this feed', { field: 'after', reason: 'unknown cursor' });
    }
    const docs = await this.feed.list(request.projectId, { type: request.type, afterSeq, limit: request.limit });
    const data = docs.map((doc) => ({
      cursor: encodeCursor(doc.seq),
      eventId: doc._id,
      type: doc.type,
      occurredAt: doc.occurredAt,
      conversationId: doc.conversationId,
      data: doc.data,
    }));
    return { data, nextCursor: data.at(-1)?.cursor ?? request.after ?? null };
  }
}
