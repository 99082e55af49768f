import { z } from 'zod';
import { HumanAgentRef, Timestamp, Uuid } from '../common';

/** A typing signal means "typing for the next TYPING_TTL_MS": show it until then or until a message from that side arrives. */
export const TYPING_TTL_MS = 5_000;
/** Senders send at most one signal per conversation in this interval; the server drops extras silently. */
export const TYPING_MIN_INTERVAL_MS = 2_000;

/** What every typing event says: when, in which conversation. */
const typingEvent = { type: z.literal('typing'), occurredAt: Timestamp, conversationId: Uuid };

/** SSE event `typing` of the visitor's live events: an agent is typing (no SSE id: it is never stored). */
export const AgentTypingEvent = z.object({
  ...typingEvent,
  by: z.literal('agent'),
  humanAgent: HumanAgentRef,
});
export type AgentTypingEvent = z.infer<typeof AgentTypingEvent>;

/** SSE event `typing` of the agents' feed: the visitor is typing (no SSE id: it does not move Last-Event-ID). */
export const VisitorTypingEvent = z.object({
  ...typingEvent,
  by: z.literal('visitor'),
});
export type VisitorTypingEvent = z.infer<typeof VisitorTypingEvent>;

export const TypingEvent = z.discriminatedUnion('by', [AgentTypingEvent, VisitorTypingEvent]);
export type TypingEvent = z.infer<typeof TypingEvent>;

/** Pub/sub channel carrying typing signals between gateways (fire and forget, nothing kept). */
export const TYPING_CHANNEL = 'typing.v1';
/** A typing signal as it crosses the channel: the event, and the project whose streams may show it. */
export const TypingSignal = z.object({ projectId: Uuid, event: TypingEvent });
export type TypingSignal = z.infer<typeof TypingSignal>;
