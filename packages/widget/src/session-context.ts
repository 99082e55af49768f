import type { PalaverClient } from '@palaver/client';
import type { PageContext } from '@palaver/contracts';
import type { SessionState } from './session-state';

/** What the session's parts need of it: the client, the state and how to change it, and how to show a failure. */
export interface SessionContext {
  readonly client: PalaverClient;
  readonly state: SessionState;
  set(patch: Partial<SessionState>): void;
  report(error: unknown): void;
}

/** What sending and streaming need besides. */
export interface ReplyContext extends SessionContext {
  /** The open conversation's id, creating one when there is none (or it ended). */
  ensureConversation(): Promise<string>;
  pageContext(): PageContext | null;
  /** The server's view of the conversation, unless a reply is being sent. */
  refresh(): Promise<void>;
  /** The server's view of the conversation, while a resumed reply still counts as sending. */
  refreshNow(conversationId: string): Promise<void>;
}
