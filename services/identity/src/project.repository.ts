import { Inject, Injectable } from '@nestjs/common';
import type { ProjectRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports, type Update } from '@palaver/platform';
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

  /** Applies an update of `$set` (and `$unset`) paths; null when there is no such project. */
  async update(projectId: string, update: Update): Promise<ProjectRecord | null> {
    const doc = await this.projects.findOneAndUpdate({ _id: projectId }, update);
    return doc ? fromDocument(doc) : null;
  }
}
