import { AnalyticsMessages, IdentityMessages, Uuid, queryInt } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';

const ProjectPath = z.object({ projectId: Uuid });
const EventsQuery = z.object({
  type: z.string().max(100).optional(),
  after: z.string().max(100).optional(),
  limit: queryInt(1, 500).default(100),
  follow: z.enum(['true', 'false']).default('false'),
});
const FOLLOW_POLL_MS = 500;

/** The feedback stream for analysts: a cursor-paged feed, a live SSE tail, and the summary. */
export const analyticsAdminRoutes = (app: FastifyInstance, deps: GatewayDeps): void => {
  const { services } = deps;

  app.get('/admin/v1/projects/:projectId/events', async (request, reply) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    const { type, after, limit, follow } = parse(EventsQuery, request.query, 'query');
    await services.send(IdentityMessages.getProject, { projectId });
    if (follow === 'false') return services.send(AnalyticsMessages.listEvents, { projectId, type, after, limit });

    // Live tail: SSE, one `data:` line per event, polling the feed from the cursor.
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    raw.write(': following\n\n');
    const lastEventId = request.headers['last-event-id'];
    let cursor = typeof lastEventId === 'string' && lastEventId ? lastEventId : after;
    let open = true;
    request.raw.on('close', () => {
      open = false;
    });
    try {
      while (open) {
        const page = await services.send(AnalyticsMessages.listEvents, { projectId, type, after: cursor, limit });
        for (const event of page.data) raw.write(`id: ${event.cursor}\ndata: ${JSON.stringify(event)}\n\n`);
        cursor = page.nextCursor ?? cursor;
        if (page.data.length < limit) await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
      }
    } catch (err) {
      raw.write(`event: error\ndata: ${JSON.stringify({ message: err instanceof Error ? err.message : 'feed failed' })}\n\n`);
    } finally {
      raw.end();
    }
  });

  app.get('/admin/v1/projects/:projectId/analytics/feedback', async (request) => {
    const { projectId } = parse(ProjectPath, request.params, 'path');
    await services.send(IdentityMessages.getProject, { projectId });
    return services.send(AnalyticsMessages.feedbackSummary, { projectId });
  });
};
