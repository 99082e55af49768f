import { Inject, Injectable } from '@nestjs/common';
import type { Contact, Visitor } from '@palaver/contracts';
import { type Collection, type DocumentStore, DuplicateKeyError, type Filter, Ports } from '@palaver/platform';

/**
 * A visitor at rest: the v2 fields and its project. Two kinds that never meet: an anonymous
 * visitor is found by its device id (`saVid`, `externalId` null); an identified visitor (surface
 * B's customer, or a verified user token's `sub`) by its `externalId` (`saVid` null).
 */
export interface VisitorDocument {
  _id: string;
  projectId: string;
  saVid: string | null;
  type: Visitor['type'];
  externalId: string | null;
  name: string | null;
  avatarUrl: string | null;
  createdAt: string;
  /** Customer fields (surface B); absent on anonymous visitors. */
  email?: string | null;
  attributes?: Record<string, string>;
  /** What the visitor left to be reached when nobody could answer. */
  contact?: Contact;
}

const VISITORS = 'visitors';

export const toVisitor = (doc: VisitorDocument): Visitor => ({
  object: 'visitor',
  id: doc._id,
  type: doc.type,
  externalId: doc.externalId,
  name: doc.name,
  avatarUrl: doc.avatarUrl,
  ...(doc.contact ? { contact: doc.contact } : {}),
});

const anonymous = (projectId: string, saVid: string): Filter => ({ projectId, saVid, type: 'anonymous' });
const identified = (projectId: string, externalId: string): Filter => ({ projectId, externalId, type: 'identified' });

@Injectable()
export class VisitorRepository {
  private readonly visitors: Collection<VisitorDocument>;

  constructor(@Inject(Ports.documents) private readonly documents: DocumentStore) {
    // One unique index holds both kinds apart: an anonymous visitor is (project, device, null), an
    // identified one (project, null, externalId), so neither can take the other's place.
    this.visitors = documents.collection<VisitorDocument>(VISITORS, [
      { keys: { projectId: 1, saVid: 1, externalId: 1 }, unique: true },
      { keys: { projectId: 1, externalId: 1 } },
    ]);
  }

  /** The project's anonymous visitor of this device. */
  async findAnonymous(projectId: string, saVid: string): Promise<VisitorDocument | null> {
    return this.visitors.findOne(anonymous(projectId, saVid));
  }

  /** The project's identified visitor with this external id (surface B's appUserId). */
  async findIdentified(projectId: string, externalId: string): Promise<VisitorDocument | null> {
    return this.visitors.findOne(identified(projectId, externalId));
  }

  /** Sets fields of a visitor; the document after the change. */
  async set(projectId: string, visitorId: string, set: Partial<VisitorDocument>): Promise<VisitorDocument | null> {
    await this.visitors.updateOne({ _id: visitorId, projectId }, { $set: set });
    return this.findById(projectId, visitorId);
  }

  /** Every visitor profile of a (deleted) project. */
  async deleteForProject(projectId: string): Promise<void> {
    await this.visitors.deleteMany({ projectId });
  }

  /** Deletes the visitor (erasure); whether there was one. */
  async delete(projectId: string, visitorId: string): Promise<boolean> {
    return (await this.visitors.deleteOne({ _id: visitorId, projectId })) > 0;
  }

  /** Rewrites the visitors' file without the profiles deleted: an erased one leaves nothing at rest. */
  async compact(): Promise<void> {
    await this.documents.compact([VISITORS]);
  }

  async findById(projectId: string, visitorId: string): Promise<VisitorDocument | null> {
    return this.visitors.findOne({ _id: visitorId, projectId });
  }

  /** The anonymous visitor of this device, inserting the one `create` makes when there is none. */
  findOrInsertAnonymous(projectId: string, saVid: string, create: () => VisitorDocument) {
    return this.findOrInsert(anonymous(projectId, saVid), create);
  }

  /** The identified visitor with this external id, inserting the one `create` makes when there is none. */
  findOrInsertIdentified(projectId: string, externalId: string, create: () => VisitorDocument) {
    return this.findOrInsert(identified(projectId, externalId), create);
  }

  /**
   * The visitor `filter` finds, inserting the one `create` makes when there is none (made only
   * then: most inits are a returning visitor's). Two concurrent first visits race on the unique
   * index: the loser reads the winner's.
   */
  private async findOrInsert(filter: Filter, create: () => VisitorDocument): Promise<{ visitor: VisitorDocument; created: boolean }> {
    const existing = await this.visitors.findOne(filter);
    if (existing) return { visitor: existing, created: false };
    const candidate = create();
    try {
      await this.visitors.insertOne(candidate);
      return { visitor: candidate, created: true };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const winner = await this.visitors.findOne(filter);
      if (!winner) throw err;
      return { visitor: winner, created: false };
    }
  }
}

/** A new anonymous visitor of a device. */
export const newAnonymousVisitor = (id: string, projectId: string, saVid: string, createdAt: string): VisitorDocument => ({
  _id: id,
  projectId,
  saVid,
  type: 'anonymous',
  externalId: null,
  name: null,
  avatarUrl: null,
  createdAt,
});

/** A new identified visitor (a customer): no device id, found by its external id only. */
export const newIdentifiedVisitor = (id: string, projectId: string, externalId: string, createdAt: string): VisitorDocument => ({
  _id: id,
  projectId,
  saVid: null,
  type: 'identified',
  externalId,
  name: null,
  avatarUrl: null,
  createdAt,
  email: null,
  attributes: {},
});
