import { type ConversationChange, ConversationLiveEvent, ConversationMessages, ErrorBody, queryInt } from '@palaver/contracts';
import { z } from 'zod';
import { bearerOf } from '../../auth/bearer';
import type { GatewayDeps } from '../../gateway.deps';
import { resumeCursor, serveLiveEvents } from '../../http/live-events';
import type { LiveStreamRegistry } from '../../http/live-stream-registry';
import type { Routes } from '../../http/routes';
import type { Announcements } from '../../reads/announcements';
import type { TypingHub } from '../../typing/typing-hub';
import { visitorOf } from './visitor-of';

const EventsQuery = z.object({ after: queryInt(0, 1_000_000_000).optional() });

/** Extension: the visitor's conversation, live (agent and assistant messages, handoff, release, close). */
export const conversationEventRoutes = (
  routes: Routes,
  { services }: GatewayDeps,
  visitorChanges: Announcements<ConversationChange>,
  live: LiveStreamRegistry,
  typing: TypingHub,
): void => {
  routes.add(
    {
      method: 'GET',
      url: '/v2/conversations/:conversationId/events',
      summary:
        'Live events of one conversation (SSE; Last-Event-ID or ?after resumes; at most LIVE_STREAMS_PER_SESSION per session, 429 beyond). Extension, see docs/api.md',
      tag: 'conversations',
      auth: 'session',
      query: EventsQuery,
      responses: {
        200: {
          description: 'text/event-stream of ConversationLiveEvent (event name = type), and `typing` events (AgentTypingEvent, no id)',
          schema: ConversationLiveEvent,
          mediaType: 'text/event-stream',
        },
        429: {
          description: 'The session already holds LIVE_STREAMS_PER_SESSION streams (RATE_LIMIT_EXCEEDED, Retry-After)',
          schema: ErrorBody,
        },
      },
    },
    async ({ session, params, query, request, reply }) => {
      const scope = { ...visitorOf(session), conversationId: params.conversationId };
      // Counted against the session's cap, and ended when the session lapses or its key is revoked.
      const stream = live.open({ kind: 'session', token: bearerOf(request), session });
      try {
        // Asked again when the conversation service announces a change of this visitor's conversations.
        await serveLiveEvents(
          reply,
          resumeCursor(request, query.after),
          async (after) => {
            const { data, cursor } = await services.send(ConversationMessages.events, { ...scope, after });
            return { events: data.map((event) => ({ id: event.id, type: event.type, data: event })), cursor };
          },
          {
            wake: (notify) => visitorChanges.listen(session, notify),
            until: stream.signal,
            // The holder's typing, never stored: no SSE id.
            ephemeral: (push) => typing.forVisitor(params.conversationId, (event) => push({ type: 'typing', data: event })),
          },
        );
      } finally {
        stream.release();
      }
    },
  );
};
