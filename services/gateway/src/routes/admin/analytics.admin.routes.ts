import { AnalyticsEvent, AnalyticsMessages, FeedbackSummary, queryInt } from '@palaver/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import { openStream, sseEvent } from '../../http/open-stream';
import type { AdminRoutes } from '../../http/routes';
import { ok } from '../../openapi/responses';
import { existingProject } from './existing-project';

const EventsQuery = z.object({
  type: z.string().max(100).optional(),
  after: z.string().max(100).optional(),
  limit: queryInt(1, 500).default(100),
  follow: z.enum(['true', 'false']).default('false'),
});
type EventsQuery = z.infer<typeof EventsQuery>;
const FOLLOW_POLL_MS = 500;

/** The feedback stream for analysts: a cursor-paged feed, a live SSE tail, and the summary. */
export const analyticsAdminRoutes = (admin: AdminRoutes, { services }: GatewayDeps): void => {
  admin.get(
    '/admin/v1/projects/:projectId/events',
    {
      permission: 'analytics.read',
      summary: "The project's event feed after a cursor; follow=true tails it live as text/event-stream",
      query: EventsQuery,
      responses: {
        200: {
          description: 'A page of events, or the live tail (follow=true)',
          schema: z.object({ data: z.array(AnalyticsEvent), nextCursor: z.string().nullable() }),
        },
      },
    },
    async ({ params, query, request, reply }) => {
      await existingProject(services, params.projectId);
      const { follow, ...page } = query;
      if (follow === 'false') return services.send(AnalyticsMessages.listEvents, { ...params, ...page });
      await tail(request, reply, params.projectId, page);
    },
  );

  admin.get(
    '/admin/v1/projects/:projectId/analytics/feedback',
    {
      permission: 'analytics.read',
      summary: 'Likes and dislikes (latest value per message), removals, by day',
      responses: ok('Feedback summary', FeedbackSummary),
    },
    async ({ params }) => {
      await existingProject(services, params.projectId);
      return services.send(AnalyticsMessages.feedbackSummary, params);
    },
  );

  /** SSE, one `data:` line per event with its cursor as `id:`, polling the feed; resumes from Last-Event-ID. */
  const tail = async (
    request: FastifyRequest,
    reply: FastifyReply,
    projectId: string,
    { type, after, limit }: Omit<EventsQuery, 'follow'>,
  ): Promise<void> => {
    const stream = openStream(reply, {
      headers: (routeHeaders) => ({
        ...routeHeaders,
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      }),
    });
    void stream.write(': following\n\n');
    const lastEventId = request.headers['last-event-id'];
    let cursor = typeof lastEventId === 'string' && lastEventId ? lastEventId : after;
    try {
      while (!stream.isGone) {
        const page = await services.send(AnalyticsMessages.listEvents, { projectId, type, after: cursor, limit });
        for (const event of page.data) void stream.write(sseEvent({ id: event.cursor, data: JSON.stringify(event) }));
        cursor = page.nextCursor ?? cursor;
        if (page.data.length < limit) await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
      }
    } catch (err) {
      void stream.write(sseEvent({ type: 'error', data: JSON.stringify({ message: err instanceof Error ? err.message : 'feed failed' }) }));
    } finally {
      stream.end();
    }
  };
};
