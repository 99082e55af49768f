import { Inject, Injectable } from '@nestjs/common';
import type { Visitor } from '@palaver/contracts';
import { type Collection, type DocumentStore, DuplicateKeyError, Ports } from '@palaver/platform';

/** A visitor at rest: the v2 fields, its project and the device id it was created for. */
export interface VisitorDocument {
  _id: string;
  projectId: string;
  saVid: string;
  type: Visitor['type'];
  externalId: string | null;
  name: string | null;
  avatarUrl: string | null;
  createdAt: string;
  /** Customer fields (surface B); absent on anonymous visitors. */
  email?: string | null;
  attributes?: Record<string, string>;
}

export const toVisitor = (doc: VisitorDocument): Visitor => ({
  object: 'visitor',
  id: doc._id,
  type: doc.type,
  externalId: doc.externalId,
  name: doc.name,
  avatarUrl: doc.avatarUrl,
});

@Injectable()
export class VisitorRepository {
  private readonly visitors: Collection<VisitorDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.visitors = documents.collection<VisitorDocument>('visitors', [{ keys: { projectId: 1, saVid: 1 }, unique: true }]);
  }

  /** The project's visitor with this device id (a customer's appUserId is its device id). */
  async findBySaVid(projectId: string, saVid: string): Promise<VisitorDocument | null> {
    return this.visitors.findOne({ projectId, saVid });
  }

  /** Sets fields of a visitor; the document after the change. */
  async set(projectId: string, visitorId: string, set: Partial<VisitorDocument>): Promise<VisitorDocument | null> {
    await this.visitors.updateOne({ _id: visitorId, projectId }, { $set: set });
    return this.findById(projectId, visitorId);
  }

  async findById(projectId: string, visitorId: string): Promise<VisitorDocument | null> {
    return this.visitors.findOne({ _id: visitorId, projectId });
  }

  /**
   * The project's visitor for this device, inserting the one `create` makes when there is none
   * (made only then: most inits are a returning device's). Two concurrent first visits race on
   * the unique (projectId, saVid) index: the loser reads the winner's.
   */
  async findOrInsert(
    projectId: string,
    saVid: string,
    create: () => VisitorDocument,
  ): Promise<{ visitor: VisitorDocument; created: boolean }> {
    const existing = await this.visitors.findOne({ projectId, saVid });
    if (existing) return { visitor: existing, created: false };
    const candidate = create();
    try {
      await this.visitors.insertOne(candidate);
      return { visitor: candidate, created: true };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const winner = await this.visitors.findOne({ projectId, saVid });
      if (!winner) throw err;
      return { visitor: winner, created: false };
    }
  }
}
