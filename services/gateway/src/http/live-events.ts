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
  /** More is waiting after the cursor (a full page): ask again at once. */
  more?: boolean;
}

/** How often an idle live stream asks for news, and how often it sends a keep-alive comment. */
export const LIVE_POLL_MS = 300;
const KEEP_ALIVE_MS = 15_000;
/**
 * How often a stream that is woken by changes (`wake`) asks for news anyway, when it sends its
 * keep-alive: only a change whose announcement was lost (a pub/sub reconnect) waits this long.
 */
export const WOKEN_POLL_MS = KEEP_ALIVE_MS;

export interface LiveEventsOptions {
  /**
   * Calls `notify` when the stream's data may have changed (and returns how to stop): the stream
   * then asks at once, and otherwise only every `wokenPollMs`, instead of every LIVE_POLL_MS.
   */
  wake?: (notify: () => void) => () => void;
  wokenPollMs?: number;
}

/** The cursor to start from: Last-Event-ID wins over the `after` query parameter; null when neither is a cursor. */
export const resumeCursor = (request: FastifyRequest, after: number | undefined): number => {
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  return after ?? 0;
};

/**
 * Serves a text/event-stream that polls `next(cursor)` and writes each event as
 * `id:`/`event:`/`data:` until the client goes away. Polling (not a stream consumer per
 * client) keeps it correct behind any number of gateway instances, as the admin event tail does;
 * with `wake`, it asks when told of a change (and seldom otherwise), so idle streams cost nothing.
 * The first call runs before the response starts, so its errors (404, 403) answer as JSON.
 */
export const serveLiveEvents = async (
  request: FastifyRequest,
  reply: FastifyReply,
  start: number,
  next: (cursor: number) => Promise<LivePage>,
  options: LiveEventsOptions = {},
): Promise<void> => {
  let cursor = start;
  const interval = options.wake ? (options.wokenPollMs ?? WOKEN_POLL_MS) : LIVE_POLL_MS;
  let open = true;
  // Set by a wake-up, cleared before each ask: one that lands during an ask is not lost.
  let woken = false;
  let endPause: (() => void) | null = null;
  // Listening before the first ask: a change right after it wakes the stream.
  const stopWaking = options.wake?.(() => {
    woken = true;
    endPause?.();
  });
  let first: LivePage;
  try {
    first = await next(cursor);
  } catch (err) {
    stopWaking?.();
    throw err;
  }
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
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !open) return resolve();
      const timer = setTimeout(() => endPause?.(), ms);
      endPause = () => {
        clearTimeout(timer);
        endPause = null;
        resolve();
      };
    });
  request.raw.on('close', () => {
    open = false;
    endPause?.();
  });
  const write = (page: LivePage) => {
    for (const event of page.events) {
      raw.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
    }
    cursor = page.cursor;
    if (page.more) woken = true;
  };
  let lastWrite = Date.now();
  try {
    write(first);
    while (open) {
      await pause(interval);
      if (!open) break;
      woken = false;
      const page = await next(cursor);
      write(page);
      if (page.events.length > 0) {
        lastWrite = Date.now();
      } else if (Date.now() - lastWrite >= KEEP_ALIVE_MS) {
        raw.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    }
  } catch (err) {
    if (open)
      raw.write(`event: error\ndata: ${JSON.stringify({ message: err instanceof Error ? err.message : 'live events failed' })}\n\n`);
  } finally {
    stopWaking?.();
    raw.end();
  }
};
