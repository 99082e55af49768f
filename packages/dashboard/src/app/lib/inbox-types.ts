// The inbox's shapes of the agents' API (docs/agents-api.md), from the contracts (type-only: no
// schema code reaches the bundle).
export type { AgentNote, CannedReply, VisitorContext, VisitorTypingEvent } from '@palaver/contracts';

/** How long a typing signal lasts: the contracts' TYPING_TTL_MS (the contracts' module would bring zod into the bundle). */
export const TYPING_TTL_MS = 5000;
/** At most one typing signal per this many ms per conversation: the contracts' TYPING_MIN_INTERVAL_MS. */
export const TYPING_EVERY_MS = 2000;
