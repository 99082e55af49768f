import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Contact, type KeyInfo, type Visitor, type VisitorIdentityInfo } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { verifyingSecrets } from '../domain/identity-secret';
import { type UserClaims, verifyUserToken } from '../domain/user-token';
import { ProjectRepository } from '../repositories/project.repository';
import {
  newAnonymousVisitor,
  newIdentifiedVisitor,
  toVisitor,
  type VisitorDocument,
  VisitorRepository,
} from '../repositories/visitor.repository';
import { projectNotFound } from './project.service';
import { SessionService } from './session.service';

type Found = { visitor: VisitorDocument; created: boolean };

/** The profile fields a token gives, as visitor fields: those it names replace the stored ones. */
const profileOf = (claims: UserClaims): Partial<VisitorDocument> => {
  const set: Partial<VisitorDocument> = {};
  if (claims.name !== undefined) set.name = claims.name;
  if (claims.email !== undefined) set.email = claims.email;
  if (claims.avatarUrl !== undefined) set.avatarUrl = claims.avatarUrl;
  return set;
};

const changed = (visitor: VisitorDocument, set: Partial<VisitorDocument>): boolean =>
  Object.entries(set).some(([field, value]) => visitor[field as keyof VisitorDocument] !== value);

@Injectable()
export class VisitorService {
  constructor(
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(ProjectRepository) private readonly projects: ProjectRepository,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /**
   * A new session on the key's project: with a user token that verifies, on the identified
   * visitor it names (whatever the device id); without one, on the device's anonymous visitor
   * (created on first sight), unless the project requires verification. A device id never leads
   * to an identified visitor.
   */
  async init(key: KeyInfo, saVid: string, userToken: string | null): Promise<{ created: boolean; sessionToken: string; visitor: Visitor }> {
    // A returning device's visitor is read alongside the project (one round trip, not two); a
    // new one is inserted only once the project is known to admit anonymous visitors.
    const [verification, returning] = await Promise.all([
      this.projects.findVerification(key.projectId),
      userToken ? null : this.visitors.findAnonymous(key.projectId, saVid),
    ]);
    if (!verification) throw projectNotFound(key.projectId);
    let found: Found;
    if (userToken) {
      const now = this.clock.now();
      const claims = await verifyUserToken(userToken, verifyingSecrets(verification.secrets, now), now);
      found = await this.identified(key.projectId, claims);
    } else if (verification.required) {
      throw new AppError('USER_TOKEN_REQUIRED', 'this project requires a user token to start a session');
    } else if (returning) {
      found = { visitor: returning, created: false };
    } else {
      found = await this.visitors.findOrInsertAnonymous(key.projectId, saVid, () =>
        newAnonymousVisitor(randomUUID(), key.projectId, saVid, this.clock.now().toISOString()),
      );
    }
    const sessionToken = await this.sessions.issue({
      projectId: key.projectId,
      visitorId: found.visitor._id,
      keyId: key.keyId,
      assistantId: key.assistantId,
    });
    return { created: found.created, sessionToken, visitor: toVisitor(found.visitor) };
  }

  async get(projectId: string, visitorId: string): Promise<Visitor> {
    const visitor = await this.visitors.findById(projectId, visitorId);
    if (!visitor) throw new AppError('NOT_FOUND', `visitor ${visitorId} not found`, { resource: 'visitor', visitorId });
    return toVisitor(visitor);
  }

  /** The inbox's visitor panel: verified when a user token or surface B named the visitor (`userId` is that id). */
  async identityOf(projectId: string, visitorId: string): Promise<{ identity: VisitorIdentityInfo; contact: Contact | null }> {
    const visitor = await this.visitors.findById(projectId, visitorId);
    if (!visitor) throw new AppError('NOT_FOUND', `visitor ${visitorId} not found`, { resource: 'visitor', visitorId });
    const verified = visitor.type === 'identified';
    return {
      identity: { verified, userId: verified ? visitor.externalId : null, email: visitor.email ?? null, name: visitor.name },
      contact: visitor.contact ?? null,
    };
  }

  async setContact(projectId: string, visitorId: string, contact: Contact): Promise<Visitor> {
    const visitor = await this.visitors.set(projectId, visitorId, { contact });
    if (!visitor) throw new AppError('NOT_FOUND', `visitor ${visitorId} not found`, { resource: 'visitor', visitorId });
    return toVisitor(visitor);
  }

  /** The identified visitor of the token's `sub` (surface B's customer), its profile brought up to the token's. */
  private async identified(projectId: string, claims: UserClaims): Promise<Found> {
    const found = await this.visitors.findOrInsertIdentified(projectId, claims.sub, () =>
      newIdentifiedVisitor(randomUUID(), projectId, claims.sub, this.clock.now().toISOString()),
    );
    const profile = profileOf(claims);
    if (!changed(found.visitor, profile)) return found;
    const updated = await this.visitors.set(projectId, found.visitor._id, profile);
    if (!updated) throw new Error(`visitor ${found.visitor._id} vanished`);
    return { visitor: updated, created: found.created };
  }
}
