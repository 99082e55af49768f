import type { HumanAgentRef } from '@palaver/contracts';

// The inbox's shapes of the agents' API (docs/agents-api.md): canned replies, notes, typing, the visitor.

export interface CannedReply {
  id: string;
  projectId: string;
  shortcut: string;
  title: string;
  content: string;
  createdAt: string;
  updatedAt: string;
}

export interface AgentNote {
  id: string;
  conversationId: string;
  author: HumanAgentRef;
  content: string;
  createdAt: string;
}

export interface VisitorContext {
  visitorId: string;
  identity: { verified: boolean; userId: string | null; email: string | null; name: string | null };
  contact: { email: string; name?: string | null } | null;
  page: { url: string | null; title: string | null };
  userAgent: string | null;
  previousConversations: { id: string; title: string | null; status: string; createdAt: string; lastInteractionAt: string }[];
}

/** A typing signal on the agents' feed: the visitor types for the next TYPING_TTL_MS. */
export interface VisitorTyping {
  type: 'typing';
  occurredAt: string;
  conversationId: string;
  by: 'visitor';
}

/** How long a typing signal lasts (TYPING_TTL_MS of the contracts). */
export const TYPING_TTL_MS = 5000;
/** At most one typing signal per this many ms per conversation. */
export const TYPING_EVERY_MS = 2000;
