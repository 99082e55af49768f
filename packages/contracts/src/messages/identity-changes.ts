import { z } from 'zod';
import { Uuid } from '../common';

/**
 * Pub/sub channel on which identity announces the changes that make a cached credential or project
 * stale. Every gateway instance listens and drops what a change touches, so revocation stays
 * immediate while sessions, keys and projects are cached (see docs/architecture.md).
 */
export const IDENTITY_CHANGES_CHANNEL = 'identity.changes.v1';

export const IdentityChange = z.discriminatedUnion('kind', [
  /** The key and every session made with it stop. */
  z.object({ kind: z.literal('key-revoked'), projectId: Uuid, keyId: Uuid }),
  /** A new key may admit origins no key admitted before (CORS answers). */
  z.object({ kind: z.literal('key-created'), projectId: Uuid, keyId: Uuid }),
  /** The project's record (limits, plan, widget) changed. */
  z.object({ kind: z.literal('project-changed'), projectId: Uuid }),
]);
export type IdentityChange = z.infer<typeof IdentityChange>;
