import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_STREAM_HEADERS, openStream, sseEvent } from './open-stream';

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

/**
 * How often an idle stream sends a keep-alive comment, and asks for news unwoken: only a change
 * whose announcement was lost (a pub/sub reconnect) waits this long.
 */
const KEEP_ALIVE_MS = 15_000;

export interface LiveEventsOptions {
  /** Calls `notify` when the stream's data may have changed (and returns how to stop): the stream then asks at once. */
  wake: (notify: () => void) => () => void;
  /** How often it asks unwoken (KEEP_ALIVE_MS). */
  fallbackMs?: number;
  /**
   * Ends the stream at once when aborted (its credential was revoked or lapsed): nothing more is
   * written, not even an answer already being fetched. Aborted before the stream starts, the
   * request answers with the reason (an AppError) as JSON.
   */
  until?: AbortSignal;
  /**
   * Events that are never stored (typing): `listen` hands each to `push` while the stream is
   * open; they are written without an SSE id, so they do not move the client's Last-Event-ID.
   */
  ephemeral?: (push: (event: Omit<LiveEvent, 'id'>) => void) => () => void;
}

/** The cursor to start from: Last-Event-ID wins over the `after` query parameter; null when neither is a cursor. */
export const resumeCursor = (request: FastifyRequest, after: number | undefined): number => {
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  return after ?? 0;
};

/**
 * Serves a text/event-stream that asks `next(cursor)` for news when `wake` tells of a change (and
 * every `fallbackMs` otherwise) and writes each event as `id:`/`event:`/`data:` until the client
 * goes away. Asking the service (not a stream consumer per client) keeps it correct behind any
 * number of gateway instances, and an idle stream costs next to nothing. The first call runs
 * before the response starts, so its errors (404, 403) answer as JSON.
 */
export const serveLiveEvents = async (
  reply: FastifyReply,
  start: number,
  next: (cursor: number) => Promise<LivePage>,
  { wake, fallbackMs = KEEP_ALIVE_MS, until, ephemeral }: LiveEventsOptions,
): Promise<void> => {
  let cursor = start;
  let open = true;
  // Set by a wake-up, cleared before each ask: one that lands during an ask is not lost.
  let woken = false;
  let endPause: (() => void) | null = null;
  // Listening before the first ask: a change right after it wakes the stream.
  const stopWaking = wake(() => {
    woken = true;
    endPause?.();
  });
  let first: LivePage;
  try {
    first = await next(cursor);
    until?.throwIfAborted();
  } catch (err) {
    stopWaking();
    throw err;
  }
  const stream = openStream(reply, {
    headers: (routeHeaders) => ({ ...routeHeaders, ...EVENT_STREAM_HEADERS }),
    keepAliveMs: KEEP_ALIVE_MS,
  });
  void stream.write(': live\n\n');
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
  const stop = () => {
    open = false;
    endPause?.();
  };
  const stopEphemeral = ephemeral?.((event) => {
    if (open) void stream.write(sseEvent({ type: event.type, data: JSON.stringify(event.data) }));
  });
  const stopWatching = stream.onGone(stop);
  until?.addEventListener('abort', stop, { once: true });
  const write = (page: LivePage) => {
    for (const event of page.events) void stream.write(sseEvent({ id: event.id, type: event.type, data: JSON.stringify(event.data) }));
    cursor = page.cursor;
    if (page.more) woken = true;
  };
  try {
    write(first);
    while (open) {
      await pause(fallbackMs);
      if (!open) break;
      woken = false;
      const page = await next(cursor);
      if (!open) break;
      write(page);
    }
  } catch (err) {
    if (open)
      void stream.write(
        sseEvent({ type: 'error', data: JSON.stringify({ message: err instanceof Error ? err.message : 'live events failed' }) }),
      );
  } finally {
    stopWaking();
    stopEphemeral?.();
    stopWatching();
    until?.removeEventListener('abort', stop);
    // A comment (clients skip it) saying why the server ended the stream; reconnecting then
    // answers 401 with the error.
    if (until?.aborted) void stream.write(`: closed: ${reasonOf(until.reason)}\n\n`);
    stream.end();
  }
};

const reasonOf = (reason: unknown): string => (reason instanceof Error ? reason.message : 'the stream was ended').replace(/[\r\n]+/g, ' ');
