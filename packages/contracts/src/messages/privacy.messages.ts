import { z } from 'zod';
import { Actor } from '../accounts/audit';
import { AdminConversation } from '../admin/conversation.admin';
import { ErasureActor, ErasureReason, ErasureRecord, VisitorProfile } from '../admin/privacy.admin';
import { Uuid } from '../common';
import { AppUserId } from '../surface-b/surface-b';
import { pagedList } from '../v2/list';
import { Ack, defineMessage } from './define';

/** Which visitor: by id (admin API), or by surface B's appUserId. */
export const VisitorRef = z.union([z.object({ visitorId: Uuid }), z.object({ appUserId: AppUserId })]);
export type VisitorRef = z.infer<typeof VisitorRef>;

/** Export, erasure and retention (docs/privacy.md). */
export const PrivacyMessages = {
  /** The visitor's profile; NOT_FOUND when identity holds none (never had one, or erased). */
  visitorProfile: defineMessage('identity.qry.visitor-profile.v1', z.object({ projectId: Uuid, visitor: VisitorRef }), VisitorProfile),
  /**
   * Erases a visitor: profile deleted and sessions refused on every gateway before it answers,
   * then their conversations (conversation.cmd.erase-visitor.v1). NOT_FOUND when neither identity
   * nor conversation knew the visitor.
   */
  eraseVisitor: defineMessage(
    'identity.cmd.erase-visitor.v1',
    /** `actor`: who asked through the admin API, for the audit log (absent for a service key). */
    z.object({ projectId: Uuid, visitor: VisitorRef, erasedBy: ErasureActor, actor: Actor.optional() }),
    ErasureRecord,
  ),
  /** Every conversation of the visitor with its messages, oldest first. */
  visitorConversations: defineMessage(
    'conversation.qry.visitor-conversations.v1',
    z.object({ projectId: Uuid, visitorId: Uuid }),
    z.object({ data: z.array(AdminConversation) }),
  ),
  /**
   * Erases the visitor's conversations (crypto-shredded, read models purged, files compacted) and
   * records the erasure; the record answers, with `conversations: 0` when there were none.
   */
  eraseVisitorConversations: defineMessage(
    'conversation.cmd.erase-visitor.v1',
    z.object({ projectId: Uuid, visitorId: Uuid, erasedBy: ErasureActor, reason: ErasureReason, profileErased: z.boolean() }),
    ErasureRecord,
  ),
  /**
   * Erases every conversation of a deleted project (crypto-shredded, read models purged, files
   * compacted); answers how many. Idempotent: the retention run sends it again for a deleted
   * project whose erasure stopped half-way.
   */
  eraseProjectConversations: defineMessage(
    'conversation.cmd.erase-project.v1',
    z.object({ projectId: Uuid }),
    z.object({ conversations: z.number().int().min(0) }),
  ),
  /** Deletes a deleted project's analytics: events feed, feedback, insights, webhooks and their deliveries. */
  eraseProjectAnalytics: defineMessage('analytics.cmd.erase-project.v1', z.object({ projectId: Uuid }), Ack),
  /** Deletes a deleted project's knowledge: documents, Q&A, sources, their pages and vectors. */
  eraseProjectKnowledge: defineMessage('search.cmd.erase-project.v1', z.object({ projectId: Uuid }), Ack),
  /** The project's erasure records, newest first. */
  listErasures: defineMessage(
    'conversation.qry.erasures.v1',
    z.object({ projectId: Uuid, limit: z.number().int().min(1).max(100), offset: z.number().int().min(0) }),
    pagedList(ErasureRecord),
  ),
} as const;
