import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  AppError,
  type ErasureActor,
  type ErasureRecord,
  PrivacyMessages,
  type VisitorProfile,
  type VisitorRef,
} from '@palaver/contracts';
import { Ports, type ServiceClient } from '@palaver/platform';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { type VisitorDocument, VisitorRepository } from '../repositories/visitor.repository';
import { AuditService } from './audit.service';

const notFound = (visitor: VisitorRef): AppError =>
  new AppError(
    'NOT_FOUND',
    'Visitor not found',
    'visitorId' in visitor ? { visitorId: visitor.visitorId } : { appUserId: visitor.appUserId },
  );

const toProfile = (doc: VisitorDocument): VisitorProfile => ({
  id: doc._id,
  type: doc.type,
  externalId: doc.externalId,
  name: doc.name,
  avatarUrl: doc.avatarUrl,
  email: doc.email ?? null,
  attributes: doc.attributes ?? {},
  createdAt: doc.createdAt,
});

/**
 * A visitor's profile for their export, and their erasure (docs/privacy.md): identity deletes the
 * profile, which stops every session of theirs (a session resolves only while its visitor exists),
 * tells every gateway before going on (their cached sessions and live streams end), rewrites its
 * files without the profile, then has the conversation service erase the conversations, which
 * records the erasure.
 */
@Injectable()
export class VisitorErasureService {
  constructor(
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(AuditService) private readonly audit: AuditService,
  ) {}

  async profile(projectId: string, visitor: VisitorRef): Promise<VisitorProfile> {
    const doc = await this.find(projectId, visitor);
    if (!doc) throw notFound(visitor);
    return toProfile(doc);
  }

  /**
   * NOT_FOUND when the visitor is unknown to both services. By id, a visitor whose profile is
   * already gone (an erasure that failed half-way) still has their conversations erased.
   */
  async erase(projectId: string, visitor: VisitorRef, erasedBy: ErasureActor, actor?: Actor): Promise<ErasureRecord> {
    const doc = await this.find(projectId, visitor);
    if (!doc && !('visitorId' in visitor)) throw notFound(visitor);
    const visitorId = doc?._id ?? (visitor as { visitorId: string }).visitorId;
    const profileErased = doc ? await this.visitors.delete(projectId, visitorId) : false;
    if (profileErased) {
      await this.changes.announce({ kind: 'visitor-erased', projectId, visitorId });
      await this.visitors.compact();
    }
    const record = await this.services.send(PrivacyMessages.eraseVisitorConversations, {
      projectId,
      visitorId,
      erasedBy,
      reason: 'request',
      profileErased,
    });
    if (!profileErased && record.conversations === 0) throw notFound(visitor);
    // Who and which visitor id, with counts: nothing of what was erased.
    await this.audit.append({
      projectId,
      actor: actor ?? { type: 'api-token', id: erasedBy.id ?? erasedBy.kind, email: null },
      action: 'visitor.erased',
      target: { type: 'visitor', id: visitorId },
      changes: { erasureId: record.id, conversations: record.conversations, profileErased, by: erasedBy.kind },
    });
    return record;
  }

  private find(projectId: string, visitor: VisitorRef): Promise<VisitorDocument | null> {
    return 'visitorId' in visitor
      ? this.visitors.findById(projectId, visitor.visitorId)
      : this.visitors.findIdentified(projectId, visitor.appUserId);
  }
}
