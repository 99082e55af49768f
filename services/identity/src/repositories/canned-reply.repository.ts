import { Inject, Injectable } from '@nestjs/common';
import type { CannedReply } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

/** A project's canned replies; the unique index makes a shortcut the project's own. */
@Injectable()
export class CannedReplyRepository {
  private readonly replies: Collection<Stored<CannedReply>>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.replies = documents.collection<Stored<CannedReply>>('canned_replies', [{ keys: { projectId: 1, shortcut: 1 }, unique: true }]);
  }

  /** DuplicateKeyError when the project has the shortcut already. */
  async insert(reply: CannedReply): Promise<void> {
    await this.replies.insertOne(toDocument(reply));
  }

  async count(projectId: string): Promise<number> {
    return this.replies.count({ projectId });
  }

  async list(projectId: string): Promise<CannedReply[]> {
    const docs = await this.replies.find({ projectId }, { sort: { shortcut: 1 } });
    return docs.map((doc) => fromDocument<CannedReply>(doc));
  }

  async find(projectId: string, id: string): Promise<CannedReply | null> {
    const doc = await this.replies.findOne({ _id: id, projectId });
    return doc ? fromDocument<CannedReply>(doc) : null;
  }

  /** The reply after the change; null when the project has no such reply. DuplicateKeyError on a taken shortcut. */
  async update(projectId: string, id: string, set: Partial<Omit<CannedReply, 'id' | 'projectId'>>): Promise<CannedReply | null> {
    const doc = await this.replies.findOneAndUpdate({ _id: id, projectId }, { $set: set });
    return doc ? fromDocument<CannedReply>(doc) : null;
  }

  /** Whether there was one. */
  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.replies.deleteOne({ _id: id, projectId })) > 0;
  }

  async deleteForProject(projectId: string): Promise<void> {
    await this.replies.deleteMany({ projectId });
  }
}
