import { z } from 'zod';
import { Uuid } from '../common';

/**
 * Pub/sub channel on which identity announces the changes that make a cached credential or project
 * stale. Every gateway and inference instance listens and drops what a change touches, so
 * revocation stays immediate while sessions, keys, projects and assistants are cached (see
 * docs/architecture.md); the gateways also end the live streams of a revoked credential.
 */
export const IDENTITY_CHANGES_CHANNEL = 'identity.changes.v1';

export const IdentityChange = z.discriminatedUnion('kind', [
  /** The key and every session made with it stop. */
  z.object({ kind: z.literal('key-revoked'), projectId: Uuid, keyId: Uuid }),
  /** A new key may admit origins no key admitted before (CORS answers). */
  z.object({ kind: z.literal('key-created'), projectId: Uuid, keyId: Uuid }),
  /** The project's record (limits, plan, widget, default assistant) changed. */
  z.object({ kind: z.literal('project-changed'), projectId: Uuid }),
  /** An assistant's instructions or model changed (inference caches assistants). */
  z.object({ kind: z.literal('assistant-changed'), projectId: Uuid, assistantId: Uuid }),
  /** An agent's token stops: the gateways end the agent's live feeds. */
  z.object({ kind: z.literal('agent-revoked'), projectId: Uuid, agentId: Uuid }),
  /** A visitor was erased: every session of theirs stops, their live streams end. */
  z.object({ kind: z.literal('visitor-erased'), projectId: Uuid, visitorId: Uuid }),
]);
export type IdentityChange = z.infer<typeof IdentityChange>;
