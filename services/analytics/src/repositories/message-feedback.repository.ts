import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Feedback } from '@palaver/contracts';
import { type Collection, type DocumentStore, insertUnlessPresent, Ports } from '@palaver/platform';
import { evolveLatest, type FeedbackSubmission } from '../domain/feedback-summary.reducer';
import { ANALYTICS_DURABILITY } from './analytics-durability';

interface MessageFeedbackDoc {
  /** `<projectId>:<messageId>`: one document per message, never shared across projects. */
  _id: string;
  projectId: string;
  conversationId: string;
  messageId: string;
  feedback: Feedback | null;
  /** Stream version of the submission that set `feedback`. */
  version: number;
  updatedAt: string;
}

/** The latest feedback of every message (`analytics_feedback`). */
@Injectable()
export class MessageFeedbackRepository {
  private readonly messages: Collection<MessageFeedbackDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.messages = documents.collection<MessageFeedbackDoc>(
      'analytics_feedback',
      [{ keys: { projectId: 1, feedback: 1 } }],
      ANALYTICS_DURABILITY,
    );
  }

  /**
   * Detaches an erased conversation's messages' latest feedback from them: each moves to a new
   * random message id (the summary's totals stay), under one new random conversation id.
   */
  async anonymizeConversation(projectId: string, conversationId: string): Promise<void> {
    const docs = await this.messages.find({ projectId, conversationId });
    if (docs.length === 0) return;
    const anonymousConversation = randomUUID();
    const copies = docs.map((doc) => {
      const messageId = randomUUID();
      return { ...doc, _id: `${projectId}:${messageId}`, messageId, conversationId: anonymousConversation };
    });
    await this.messages.insertMany(copies);
    await this.messages.deleteMany({ _id: { $in: docs.map((doc) => doc._id) } });
  }

  /** Keeps the submission when it is newer than the stored one; a replay or a stale event changes nothing. */
  async apply(submission: FeedbackSubmission): Promise<void> {
    const _id = `${submission.projectId}:${submission.messageId}`;
    // Compare-and-set on the version, so concurrent deliveries for one message cannot undo each other.
    for (;;) {
      const current = await this.messages.findOne({ _id });
      const next = evolveLatest(current, submission);
      if (next === null) return;
      if (current === null) {
        const inserted = await insertUnlessPresent(this.messages, {
          _id,
          projectId: submission.projectId,
          conversationId: submission.conversationId,
          messageId: submission.messageId,
          feedback: next.feedback,
          version: next.version,
          updatedAt: submission.occurredAt,
        });
        if (inserted) return;
        continue;
      }
      const { matched } = await this.messages.updateOne(
        { _id, version: current.version },
        { $set: { feedback: next.feedback, version: next.version, updatedAt: submission.occurredAt } },
      );
      if (matched > 0) return;
    }
  }

  /**
   * The latest value of every message of the project whose latest feedback is a like or a
   * dislike, and when it was given: the summary's totals and days both come from this one read,
   * so they agree.
   */
  async latestValues(projectId: string): Promise<{ feedback: Feedback; at: string }[]> {
    const docs = await this.messages.find({ projectId, feedback: { $in: ['like', 'dislike'] } });
    return docs.map((doc) => ({ feedback: doc.feedback as Feedback, at: doc.updatedAt }));
  }

  /** Everything of a deleted project; answers how many rows went. */
  deleteForProject(projectId: string): Promise<number> {
    return this.messages.deleteMany({ projectId });
  }
}
