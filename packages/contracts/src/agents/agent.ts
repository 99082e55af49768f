import { z } from 'zod';
import { credentialListing, HumanAgentRef, httpUrl, nonBlank, queryInt, Timestamp, Uuid } from '../common';
import { AgentNote } from '../inbox/agent-note';
import { Contact } from '../v2/contact';
import { ConversationStatus } from '../v2/conversation';
import { HANDOFF_EVENT_TYPES, liveEventHead } from '../v2/conversation-events';
import { Message } from '../v2/message';

/** Agent tokens: `ak_` and 32 random bytes in base62, shown once, stored as their SHA-256. */
export const AGENT_TOKEN_PREFIX = 'ak_';

/** What the assistant tells a visitor whose conversation was queued for a person. */
export const HANDOFF_NOTICE = 'I have asked a member of our team to join. An agent will answer here shortly.';

/** The tool a real model may call to queue the conversation for a person (project handoff setting on). */
export const HANDOFF_TOOL = {
  name: 'request_human_agent',
  description: 'Hand the conversation to a human member of the team when the visitor asks for a person or needs help you cannot give.',
} as const;

export const CreateAgentBody = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(320).optional(),
  image: httpUrl(2000).optional(),
});
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;

/** An agent as listed: never the token, only its last characters. */
export const AgentRecord = z.object({
  id: Uuid,
  projectId: Uuid,
  name: z.string(),
  email: z.string().nullable(),
  image: z.string().nullable(),
  ...credentialListing,
});
export type AgentRecord = z.infer<typeof AgentRecord>;

export const CreatedAgent = AgentRecord.extend({ token: z.string() });
export type CreatedAgent = z.infer<typeof CreatedAgent>;

/** Who calls the agents' API: resolved from the bearer token on every request. */
export const AgentInfo = z.object({
  agentId: Uuid,
  projectId: Uuid,
  name: z.string(),
  image: z.string().nullable(),
  /** Set when a signed-in person works the inbox as themself (then `agentId` is their user id); absent for an agent token. */
  email: z.string().optional(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

export const HandoffStatus = z.enum(['none', 'waiting', 'claimed']);
export type HandoffStatus = z.infer<typeof HandoffStatus>;

/** A conversation as an agent sees it: its handoff state and the visitor messages nobody answered yet. */
export const AgentConversation = z.object({
  id: Uuid,
  visitorId: Uuid,
  status: ConversationStatus,
  title: z.string().nullable(),
  createdAt: Timestamp,
  lastInteractionAt: Timestamp,
  handoff: HandoffStatus,
  handoffRequestedAt: Timestamp.nullable(),
  humanAgent: HumanAgentRef.nullable(),
  unansweredMessages: z.array(Message),
  /** The email (and name) the visitor left when nobody could answer. */
  contact: Contact.nullable().optional(),
});
export type AgentConversation = z.infer<typeof AgentConversation>;

export const QueueQuery = z.object({ limit: queryInt(1, 100).default(50) });

export const AgentMessageBody = z.object({ content: nonBlank(z.string().min(1).max(10_000)) });

/**
 * One entry of the agents' live feed (`GET /agent/v1/events`). `id` is the SSE event id
 * (resume with Last-Event-ID); `type` is the SSE event name.
 */
export const AgentEventType = z.enum([...HANDOFF_EVENT_TYPES, 'message.visitor', 'message.agent', 'note.added']);
export type AgentEventType = z.infer<typeof AgentEventType>;

export const AgentEvent = z.object({
  ...liveEventHead(AgentEventType),
  conversationId: Uuid,
  /** The agent holding the conversation after the event (null while it waits or once released). */
  humanAgentId: Uuid.nullable(),
  conversation: AgentConversation,
  /** The message of `message.*` events. */
  message: Message.nullable(),
  /** The internal note of `note.added` events (absent or null for the others). */
  note: AgentNote.nullable().optional(),
});
export type AgentEvent = z.infer<typeof AgentEvent>;

/**
 * The open conversations an agent holds (at most HELD_LIMIT, the longest held first), and the
 * agents' feed position read just before them: following `GET /agent/v1/events?after=<feedCursor>`
 * brings everything that changed since, so a client starts from this instead of replaying the feed.
 */
export const HELD_LIMIT = 100;
export const HeldConversations = z.object({ data: z.array(AgentConversation), feedCursor: z.string() });
export type HeldConversations = z.infer<typeof HeldConversations>;

export const PresenceStatus = z.enum(['online', 'away']);
export type PresenceStatus = z.infer<typeof PresenceStatus>;
/** `PUT /agent/v1/presence`: online lasts PRESENCE_TTL_SECONDS unless renewed (another PUT, or an open live feed). */
export const PresenceBody = z.object({ status: PresenceStatus });
export const Presence = z.object({ status: PresenceStatus, expiresInSeconds: z.number().int().nullable() });
export type Presence = z.infer<typeof Presence>;
