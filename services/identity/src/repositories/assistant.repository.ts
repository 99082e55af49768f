import { Inject, Injectable } from '@nestjs/common';
import type { AssistantRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

@Injectable()
export class AssistantRepository {
  private readonly assistants: Collection<Stored<AssistantRecord>>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.assistants = documents.collection<Stored<AssistantRecord>>('assistants', [{ keys: { projectId: 1, createdAt: 1 } }]);
  }

  async insert(assistant: AssistantRecord): Promise<void> {
    await this.assistants.insertOne(toDocument(assistant));
  }

  async findById(projectId: string, assistantId: string): Promise<AssistantRecord | null> {
    const doc = await this.assistants.findOne({ _id: assistantId, projectId });
    return doc ? fromDocument(doc) : null;
  }

  /** Applies `$set` fields; null when the project has no such assistant. */
  async set(projectId: string, assistantId: string, set: Partial<AssistantRecord>): Promise<AssistantRecord | null> {
    const doc = await this.assistants.findOneAndUpdate({ _id: assistantId, projectId }, { $set: set });
    return doc ? fromDocument(doc) : null;
  }

  async listByProject(projectId: string): Promise<AssistantRecord[]> {
    const docs = await this.assistants.find({ projectId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map((doc) => fromDocument<AssistantRecord>(doc));
  }
}
