import { z } from 'zod';
import { Uuid } from '../common';

/**
 * Pub/sub channel on which the conversation service announces, once a command's read models are
 * written, whose conversations changed. Every gateway drops its cached reads of that visitor, so a
 * read after a write's answer sees the write (see docs/architecture.md, "Decisions, and why").
 */
export const CONVERSATION_CHANGES_CHANNEL = 'conversation.changes.v1';

export const ConversationChange = z.object({ projectId: Uuid, visitorId: Uuid });
export type ConversationChange = z.infer<typeof ConversationChange>;

/**
 * Pub/sub channel on which the conversation service announces a new entry of a project's agent
 * feed, once it is stored: the gateways' agent streams ask for it at once (best effort: they also
 * ask every few seconds).
 */
export const AGENT_FEED_CHANGES_CHANNEL = 'agent-feed.changes.v1';

export const AgentFeedChange = z.object({ projectId: Uuid });
export type AgentFeedChange = z.infer<typeof AgentFeedChange>;
