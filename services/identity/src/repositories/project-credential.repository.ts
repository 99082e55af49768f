import type { Collection, DocumentStore, IndexSpec } from '@palaver/platform';
import type { Stored } from './document-mapping';

/** What keys and agents share: each belongs to a project and is revoked, never deleted. */
type Credential = { id: string; projectId: string; revokedAt: string | null };

/**
 * A project's credentials at rest: the listed record plus the SHA-256 of its secret (never the
 * secret), by which a use looks it up. `toRecord` leaves out what is never answered.
 */
export abstract class ProjectCredentialRepository<R extends Credential, D extends Stored<R> & { hash: string }> {
  protected readonly collection: Collection<D>;

  /** `indexes`: those of the kind's own queries, besides the lookup by hash and the listing by project. */
  protected constructor(
    documents: DocumentStore,
    name: string,
    private readonly toRecord: (doc: D) => R,
    indexes: IndexSpec[] = [],
  ) {
    this.collection = documents.collection<D>(name, [
      { keys: { hash: 1 }, unique: true },
      { keys: { projectId: 1, createdAt: 1 } },
      ...indexes,
    ]);
  }

  async findByHash(hash: string): Promise<R | null> {
    const doc = await this.collection.findOne({ hash });
    return doc ? this.toRecord(doc) : null;
  }

  async findById(projectId: string, id: string): Promise<R | null> {
    const doc = await this.collection.findOne({ _id: id, projectId });
    return doc ? this.toRecord(doc) : null;
  }

  async listByProject(projectId: string): Promise<R[]> {
    const docs = await this.collection.find({ projectId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(this.toRecord);
  }

  /** The ids of the project's live credentials, oldest first. */
  async liveIds(projectId: string): Promise<string[]> {
    const docs = await this.collection.find({ projectId, revokedAt: null }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map((doc) => doc._id);
  }

  /**
   * Sets revokedAt on a live credential. Idempotent: a revoked one is answered with its first
   * revocation time; null when the project has none with this id.
   */
  async revoke(projectId: string, id: string, revokedAt: string): Promise<R | null> {
    const doc =
      (await this.collection.findOneAndUpdate({ _id: id, projectId, revokedAt: null }, { $set: { revokedAt } })) ??
      (await this.collection.findOne({ _id: id, projectId }));
    return doc ? this.toRecord(doc) : null;
  }
}
