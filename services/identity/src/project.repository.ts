import { Inject, Injectable } from '@nestjs/common';
import type { ProjectRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

@Injectable()
export class ProjectRepository {
  private readonly projects: Collection<Stored<ProjectRecord>>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.projects = documents.collection<Stored<ProjectRecord>>('projects', [{ keys: { createdAt: 1 } }]);
  }

  async insert(project: ProjectRecord): Promise<void> {
    await this.projects.insertOne(toDocument(project));
  }

  async findById(projectId: string): Promise<ProjectRecord | null> {
    const doc = await this.projects.findOne({ _id: projectId });
    return doc ? fromDocument(doc) : null;
  }

  async list(): Promise<ProjectRecord[]> {
    const docs = await this.projects.find({}, { sort: { createdAt: 1, _id: 1 } });
    return docs.map((doc) => fromDocument<ProjectRecord>(doc));
  }

  /** Applies `$set` paths; null when there is no such project. */
  async set(projectId: string, set: Record<string, unknown>): Promise<ProjectRecord | null> {
    const doc = await this.projects.findOneAndUpdate({ _id: projectId }, { $set: set });
    return doc ? fromDocument(doc) : null;
  }
}
