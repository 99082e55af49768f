import { type ConversationChange, ConversationLiveEvent, ConversationMessages, queryInt, Uuid } from '@palaver/contracts';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import { resumeCursor, serveLiveEvents } from '../../http/live-events';
import type { Routes } from '../../http/routes';
import type { Announcements } from '../../reads/announcements';

const ConversationPath = z.object({ conversationId: Uuid });
const EventsQuery = z.object({ after: queryInt(0, 1_000_000_000).optional() });

/** Extension: the visitor's conversation, live (agent and assistant messages, handoff, release, close). */
export const conversationEventRoutes = (
  routes: Routes,
  { services }: GatewayDeps,
  visitorChanges: Announcements<ConversationChange>,
): void => {
  routes.add(
    {
      method: 'GET',
      url: '/v2/conversations/:conversationId/events',
      summary: 'Live events of one conversation (SSE; Last-Event-ID or ?after resumes). Extension, see docs/api.md',
      tag: 'conversations',
      auth: 'session',
      params: ConversationPath,
      query: EventsQuery,
      responses: {
        200: {
          description: 'text/event-stream of ConversationLiveEvent (event name = type)',
          schema: ConversationLiveEvent,
          mediaType: 'text/event-stream',
        },
      },
    },
    async ({ session, params, query, request, reply }) => {
      const scope = { projectId: session.projectId, visitorId: session.visitorId, conversationId: params.conversationId };
      // Asked again when the conversation service announces a change of this visitor's conversations.
      await serveLiveEvents(
        request,
        reply,
        resumeCursor(request, query.after),
        async (after) => {
          const { data, cursor } = await services.send(ConversationMessages.events, { ...scope, after });
          return { events: data.map((event) => ({ id: event.id, type: event.type, data: event })), cursor };
        },
        { wake: (notify) => visitorChanges.listen(session, notify) },
      );
    },
  );
};
