import type { FastifyReply, FastifyRequest } from 'fastify';

export interface LiveEvent {
  /** SSE id: the cursor a client resumes from (Last-Event-ID). */
  id: string;
  /** SSE event name. */
  type: string;
  data: unknown;
}

/** Events to write, and the cursor after them (it may move past events this client does not see). */
export interface LivePage {
  events: LiveEvent[];
  cursor: number;
}

/** How often an idle live stream asks for news, and how often it sends a keep-alive comment. */
export const LIVE_POLL_MS = 300;
const KEEP_ALIVE_MS = 15_000;

/** The cursor to start from: Last-Event-ID wins over the `after` query parameter; null when neither is a cursor. */
export const resumeCursor = (request: FastifyRequest, after: number | undefined): number => {
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  return after ?? 0;
};

/**
 * Serves a text/event-stream that polls `next(cursor)` and writes each event as
 * `id:`/`event:`/`data:` until the client goes away. Polling (not a stream consumer per
 * client) keeps it correct behind any number of gateway instances, as the admin event tail does.
 * The first call runs before the response starts, so its errors (404, 403) answer as JSON.
 */
export const serveLiveEvents = async (
  request: FastifyRequest,
  reply: FastifyReply,
  start: number,
  next: (cursor: number) => Promise<LivePage>,
): Promise<void> => {
  let cursor = start;
  const first = await next(cursor);
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)]));
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write(': live\n\n');
  let open = true;
  request.raw.on('close', () => {
    open = false;
  });
  const write = (page: LivePage) => {
    for (const event of page.events) {
      raw.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
    }
    cursor = page.cursor;
  };
  let lastWrite = Date.now();
  try {
    write(first);
    while (open) {
      await new Promise((resolve) => setTimeout(resolve, LIVE_POLL_MS));
      if (!open) break;
      const page = await next(cursor);
      write(page);
      if (page.events.length > 0) {
        lastWrite = Date.now();
      } else if (Date.now() - lastWrite > KEEP_ALIVE_MS) {
        raw.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    }
  } catch (err) {
    if (open)
      raw.write(`event: error\ndata: ${JSON.stringify({ message: err instanceof Error ? err.message : 'live events failed' })}\n\n`);
  } finally {
    raw.end();
  }
};
