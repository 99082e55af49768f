import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, Ports, type WithId } from '@palaver/platform';

/** An open invitation under the SHA-256 of its token: whom it is for and until when (ISO). */
type InvitationDocument = WithId & { userId: string; expiresAt: string };

@Injectable()
export class InvitationRepository {
  private readonly invitations: Collection<InvitationDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.invitations = documents.collection<InvitationDocument>('invitations', [{ keys: { userId: 1 } }]);
  }

  async insert(tokenHash: string, userId: string, expiresAt: string): Promise<void> {
    await this.invitations.insertOne({ _id: tokenHash, userId, expiresAt });
  }

  /** Whom a still valid invitation is for, leaving it in place. */
  async peek(tokenHash: string, now: string): Promise<string | null> {
    const doc = await this.invitations.findOne({ _id: tokenHash });
    return doc && doc.expiresAt > now ? doc.userId : null;
  }

  /**
   * Takes the invitation if it is still valid at `now`: of two concurrent acceptances only the one
   * whose delete removes it gets the user id.
   */
  async take(tokenHash: string, now: string): Promise<string | null> {
    const doc = await this.invitations.findOne({ _id: tokenHash });
    if (!doc || doc.expiresAt <= now) return null;
    const removed = await this.invitations.deleteOne({ _id: tokenHash, expiresAt: { $gt: now } });
    return removed === 1 ? doc.userId : null;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.invitations.deleteMany({ userId });
  }
}
