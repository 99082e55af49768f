import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_IDENTITY_VERIFICATION, type ProjectRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports, type Update } from '@palaver/platform';
import type { IdentitySecrets } from '../domain/identity-secret';
import { fromDocument, type Stored, toDocument } from './document-mapping';

/** A project at rest: the record and its identity secrets, which no record ever carries. */
type ProjectDocument = Stored<ProjectRecord> & { identitySecrets?: IdentitySecrets | null; deletedAt?: string | null };

/** A deleted project stays stored (its id, name and when) but is found by nothing else: null matches a missing field. */
const LIVE = { deletedAt: null };

/** What an init needs of its project to verify a visitor. */
export interface ProjectVerification {
  required: boolean;
  secrets: IdentitySecrets | null;
}

const toRecord = (doc: ProjectDocument): ProjectRecord => {
  const { identitySecrets: _secrets, deletedAt: _deletedAt, ...record } = doc;
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
    const doc = await this.projects.findOne({ _id: projectId, ...LIVE });
    return doc ? toRecord(doc) : null;
  }

  async list(): Promise<ProjectRecord[]> {
    const docs = await this.projects.find(LIVE, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toRecord);
  }

  /** Applies an update of `$set` (and `$unset`) paths; null when there is no such project. */
  async update(projectId: string, update: Update): Promise<ProjectRecord | null> {
    const doc = await this.projects.findOneAndUpdate({ _id: projectId, ...LIVE }, update);
    return doc ? toRecord(doc) : null;
  }

  /** The project's verification setting and secrets; null when there is no such project. */
  async findVerification(projectId: string): Promise<ProjectVerification | null> {
    const doc = await this.projects.findOne({ _id: projectId, ...LIVE });
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
      { _id: projectId, ...LIVE, 'identitySecrets.current.secret': expected?.current.secret ?? null },
      { $set: { identitySecrets: secrets, 'identityVerification.secretCreatedAt': secrets.current.createdAt, updatedAt: now } },
    );
    return matched > 0;
  }

  /**
   * Marks the project deleted and drops its identity secrets; false when there is no such project
   * or it was deleted already (so only one of two concurrent deletions goes on).
   */
  async markDeleted(projectId: string, now: string): Promise<boolean> {
    const { matched } = await this.projects.updateOne(
      { _id: projectId, ...LIVE },
      { $set: { deletedAt: now, updatedAt: now, identitySecrets: null } },
    );
    return matched > 0;
  }

  /** The deleted projects' ids and deletion times, oldest first. */
  async listDeleted(): Promise<{ id: string; deletedAt: string }[]> {
    const docs = await this.projects.find({ deletedAt: { $ne: null } }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map((doc) => ({ id: doc._id, deletedAt: doc.deletedAt as string }));
  }
}
