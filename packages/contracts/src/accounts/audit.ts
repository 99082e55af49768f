import { z } from 'zod';
import { queryInt, Timestamp, Uuid } from '../common';

/**
 * Who made a change: carried with every admin command from the gateway. `system` is the platform
 * itself acting on a schedule (id `retention` for the retention job), never a caller.
 */
export const Actor = z.object({
  type: z.enum(['admin-token', 'user', 'api-token', 'agent-token', 'system']),
  /** The user's id (also for their API tokens), the agent's id, `admin` for the admin token, the job for `system`. */
  id: z.string().max(100),
  email: z.string().nullable(),
});
export type Actor = z.infer<typeof Actor>;

export const ADMIN_TOKEN_ACTOR: Actor = { type: 'admin-token', id: 'admin', email: null };
export const RETENTION_ACTOR: Actor = { type: 'system', id: 'retention', email: null };

/** `<resource>.<verb>`, e.g. `key.created`, `member.removed`. */
export const AuditAction = z.string().regex(/^[a-z][a-z-]*\.[a-z][a-z-]*$/, 'must read <resource>.<verb>');

/** One change, as written by the service that made it. Never a secret: keys, tokens and passwords are left out. */
export const AuditEntry = z.object({
  id: Uuid,
  at: Timestamp,
  projectId: Uuid.nullable(),
  actor: Actor,
  action: AuditAction,
  target: z.object({ type: z.string().max(50), id: z.string().max(200) }),
  changes: z.record(z.string(), z.unknown()).optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** What a service hands to append an entry: the id and time are the log's. */
export const NewAuditEntry = AuditEntry.omit({ id: true, at: true });
export type NewAuditEntry = z.infer<typeof NewAuditEntry>;

/**
 * An entry relayed from another service's audit outbox: the id and time are chosen where the
 * change was made, so a second delivery of the same entry is recognised and not appended again.
 */
export const RelayedAuditEntry = NewAuditEntry.extend({ id: Uuid.optional(), at: Timestamp.optional() });
export type RelayedAuditEntry = z.infer<typeof RelayedAuditEntry>;

export const AuditQuery = z.object({
  /** An actor id (a user's id, `admin`). */
  actor: z.string().max(100).optional(),
  /** An exact action (`key.revoked`) or a resource (`key`). */
  action: z.string().max(100).optional(),
  from: Timestamp.optional(),
  to: Timestamp.optional(),
  limit: queryInt(1, 200).default(50),
  cursor: z.string().max(200).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditPage = z.object({ data: z.array(AuditEntry), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof AuditPage>;
