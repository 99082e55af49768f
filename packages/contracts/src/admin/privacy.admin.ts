import { z } from 'zod';
import { QueryOffset, queryInt, Timestamp, Uuid } from '../common';
import { AgentNote } from '../inbox/agent-note';
import { visitorIdentity } from '../v2/visitor';
import { AdminConversation } from './conversation.admin';

/** Everything identity holds about a visitor (the export's `visitor`). */
export const VisitorProfile = z.object({
  ...visitorIdentity,
  email: z.string().nullable(),
  attributes: z.record(z.string(), z.string()),
  createdAt: Timestamp,
});
export type VisitorProfile = z.infer<typeof VisitorProfile>;

/**
 * A visitor's data as one JSON document (GDPR art. 15): their profile, and every conversation of
 * theirs with all its messages (the feedback they gave is on each message).
 */
export const VisitorExport = z.object({
  object: z.literal('visitor_export'),
  projectId: Uuid,
  exportedAt: Timestamp,
  /** null when identity no longer holds a profile (its conversations may still be listed). */
  visitor: VisitorProfile.nullable(),
  conversations: z.array(AdminConversation),
  /**
   * What the team's inbox holds about each of those conversations, which the visitor never saw:
   * the browser's User-Agent and the agents' internal notes (oldest first). Personal data too, so
   * in the export; the admin decides what of it to hand over (docs/privacy.md).
   */
  inbox: z.array(z.object({ conversationId: Uuid, userAgent: z.string().nullable(), notes: z.array(AgentNote) })),
});
export type VisitorExport = z.infer<typeof VisitorExport>;

/** Who erased: the admin token, a project's secret key (surface B), or the retention job. */
export const ErasureActor = z.object({
  kind: z.enum(['admin', 'api_key', 'retention']),
  /** The key's id for `api_key`; null otherwise. */
  id: z.string().nullable(),
});
export type ErasureActor = z.infer<typeof ErasureActor>;

/** Why: the person asked (GDPR art. 17), or the project's retention period ran out. */
export const ErasureReason = z.enum(['request', 'retention']);
export type ErasureReason = z.infer<typeof ErasureReason>;

/** The record every erasure leaves: who, when, which visitor; never what was erased. */
export const ErasureRecord = z.object({
  object: z.literal('erasure'),
  id: Uuid,
  projectId: Uuid,
  visitorId: Uuid,
  reason: ErasureReason,
  erasedBy: ErasureActor,
  erasedAt: Timestamp,
  /** How many conversations were erased. */
  conversations: z.number().int().min(0),
  /** Whether the visitor's profile (and sessions) went too: always on a request, never by retention. */
  profileErased: z.boolean(),
});
export type ErasureRecord = z.infer<typeof ErasureRecord>;

export const AdminVisitorParams = z.object({ projectId: Uuid, visitorId: Uuid });
export const ListErasuresQuery = z.object({ limit: queryInt(1, 100).default(20), offset: QueryOffset });

/** A project's retention period: conversations idle longer are erased by a daily job; null keeps them. */
export const RetentionDays = z.number().int().min(1).max(36_500).nullable();
