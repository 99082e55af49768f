import { Inject, Injectable } from '@nestjs/common';
import type { Membership, Role } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports, type WithId } from '@palaver/platform';

type MembershipDocument = WithId & Membership;

const idOf = (projectId: string, userId: string): string => `${projectId}:${userId}`;
const toMembership = ({ _id, ...membership }: MembershipDocument): Membership => membership;

@Injectable()
export class MembershipRepository {
  private readonly memberships: Collection<MembershipDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.memberships = documents.collection<MembershipDocument>('memberships', [
      { keys: { userId: 1 } },
      { keys: { projectId: 1, createdAt: 1 } },
    ]);
  }

  /** Creates the membership or changes its role; answers it as stored and the role it had before (null: new). */
  async put(projectId: string, userId: string, role: Role, now: string): Promise<{ membership: Membership; previous: Role | null }> {
    const before = await this.memberships.findOne({ _id: idOf(projectId, userId) });
    const doc = await this.memberships.findOneAndUpdate(
      { _id: idOf(projectId, userId) },
      { $set: { role, updatedAt: now, projectId, userId }, $setOnInsert: { createdAt: now } },
      { upsert: true },
    );
    return { membership: toMembership(doc!), previous: before?.role ?? null };
  }

  async find(projectId: string, userId: string): Promise<Membership | null> {
    const doc = await this.memberships.findOne({ _id: idOf(projectId, userId) });
    return doc ? toMembership(doc) : null;
  }

  async listByProject(projectId: string): Promise<Membership[]> {
    const docs = await this.memberships.find({ projectId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toMembership);
  }

  async listByUser(userId: string): Promise<Membership[]> {
    const docs = await this.memberships.find({ userId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toMembership);
  }

  async countOwners(projectId: string): Promise<number> {
    return this.memberships.count({ projectId, role: 'owner' });
  }

  async countOwnersAnywhere(): Promise<number> {
    return this.memberships.count({ role: 'owner' });
  }

  async remove(projectId: string, userId: string): Promise<number> {
    return this.memberships.deleteOne({ _id: idOf(projectId, userId) });
  }

  async removeForUser(userId: string): Promise<void> {
    await this.memberships.deleteMany({ userId });
  }

  async removeForProject(projectId: string): Promise<void> {
    await this.memberships.deleteMany({ projectId });
  }
}
