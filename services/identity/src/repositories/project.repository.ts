import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_IDENTITY_VERIFICATION, type ProjectRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports, type Update } from '@palaver/platform';
import type { IdentitySecrets } from '../domain/identity-secret';
import { fromDocument, type Stored, toDocument } from './document-mapping';

/** A project at rest: the record and its identity secrets, which no record ever carries. */
type ProjectDocument = Stored<ProjectRecord> & { identitySecrets?: IdentitySecrets | null };

/** What an init needs of its project to verify a visitor. */
export interface ProjectVerification {
  required: boolean;
  secrets: IdentitySecrets | null;
}

const toRecord = (doc: ProjectDocument): ProjectRecord => {
  const { identitySecrets: _secrets, ...record } = doc;
  const project = fromDocument<ProjectRecord>(record);
  // Projects stored before the setting have none, or only the fields set since.
  return {
    ...project,
    identityVerification: { ...DEFAULT_IDENTITY_VERIFICATION, ...project.identityVerification },
    retentionDays: project.retentionDays ?? null,
  };
};

@Injectable()
export class ProjectRepository {
  private readonly projects: Collection<ProjectDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.projects = documents.collection<ProjectDocument>('projects', [{ keys: { createdAt: 1 } }]);
  }

  async insert(project: ProjectRecord): Promise<void> {
    await this.projects.insertOne(toDocument(project));
  }

  async findById(projectId: string): Promise<ProjectRecord | null> {
    const doc = await this.projects.findOne({ _id: projectId });
    return doc ? toRecord(doc) : null;
  }

  async list(): Promise<ProjectRecord[]> {
    const docs = await this.projects.find({}, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toRecord);
  }

  /** Applies an update of `$set` (and `$unset`) paths; null when there is no such project. */
  async update(projectId: string, update: Update): Promise<ProjectRecord | null> {
    const doc = await this.projects.findOneAndUpdate({ _id: projectId }, update);
    return doc ? toRecord(doc) : null;
  }

  /** The project's verification setting and secrets; null when there is no such project. */
  async findVerification(projectId: string): Promise<ProjectVerification | null> {
    const doc = await this.projects.findOne({ _id: projectId });
    if (!doc) return null;
    return { required: doc.identityVerification?.required ?? false, secrets: doc.identitySecrets ?? null };
  }

  /**
   * Replaces the secrets if they are still `expected` (what the rotation was computed from), so
   * two concurrent rotations cannot both keep their own "previous"; false when they changed or
   * there is no such project.
   */
  async replaceSecrets(projectId: string, expected: IdentitySecrets | null, secrets: IdentitySecrets, now: string): Promise<boolean> {
    const { matched } = await this.projects.updateOne(
      { _id: projectId, 'identitySecrets.current.secret': expected?.current.secret ?? null },
      { $set: { identitySecrets: secrets, 'identityVerification.secretCreatedAt': secrets.current.createdAt, updatedAt: now } },
    );
    return matched > 0;
  }
}
