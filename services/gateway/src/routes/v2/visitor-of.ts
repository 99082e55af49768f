import type { SessionInfo } from '@palaver/contracts';

/** The visitor a session speaks for, as the conversation service scopes its reads and writes. */
export const visitorOf = (session: SessionInfo) => ({ projectId: session.projectId, visitorId: session.visitorId });
