import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/** The headers an event stream answers with (a stream route's own, set on the reply, are added by `openStream`). */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

export interface StreamOptions {
  /** The response's headers, given those the route set on the reply (CORS, security headers). */
  headers: (routeHeaders: Record<string, string>) => Record<string, string>;
  /** Writes `: keep-alive` when nothing was written for this long (none when absent). */
  keepAliveMs?: number;
}

/** A response taken over from Fastify, written piece by piece until `end`. */
export interface OpenStream {
  readonly raw: ServerResponse;
  /** Aborted once the client goes away before `end` (a reload, a lost network). */
  readonly gone: AbortSignal;
  /** Writes `text`; resolves once the response takes more (backpressure), or at once when the client is gone. */
  write(text: string): Promise<void>;
  end(text?: string): void;
}

/**
 * Every stream the gateway serves (replies, live events, the agents' feed, the analytics tail)
 * starts here: hijacked from Fastify, its status and headers written at once, a keep-alive
 * comment while idle if asked, and `gone` aborted when the client disconnects.
 */
export const openStream = (reply: FastifyReply, options: StreamOptions): OpenStream => {
  const routeHeaders = Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)]));
  reply.hijack();
  return openResponse(reply.raw, options.headers(routeHeaders), options.keepAliveMs);
};

/** As `openStream`, on a bare Node response. */
export const openResponse = (raw: ServerResponse, headers: Record<string, string>, keepAliveMs?: number): OpenStream => {
  raw.writeHead(200, headers);
  const left = new AbortController();
  let lastWrite = Date.now();
  const keepAlive =
    keepAliveMs === undefined
      ? null
      : setInterval(
          () => {
            if (Date.now() - lastWrite < keepAliveMs || raw.writableEnded || raw.destroyed) return;
            raw.write(': keep-alive\n\n');
            lastWrite = Date.now();
          },
          Math.max(1, Math.floor(keepAliveMs / 2)),
        );
  keepAlive?.unref();
  const onClose = () => {
    if (keepAlive) clearInterval(keepAlive);
    if (!raw.writableFinished) left.abort();
  };
  raw.once('close', onClose);
  const write = async (text: string): Promise<void> => {
    if (left.signal.aborted || raw.destroyed) return;
    lastWrite = Date.now();
    if (raw.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        raw.off('drain', done);
        left.signal.removeEventListener('abort', done);
        resolve();
      };
      raw.once('drain', done);
      left.signal.addEventListener('abort', done, { once: true });
    });
  };
  return {
    raw,
    gone: left.signal,
    write,
    end(text) {
      if (keepAlive) clearInterval(keepAlive);
      if (raw.writableEnded || raw.destroyed) return;
      if (text === undefined) raw.end();
      else raw.end(text);
    },
  };
};

/** One server-sent event: `id:`, `event:` and `data:` lines (those given), then a blank line. */
export const sseEvent = (event: { id?: string; type?: string; data: string }): string =>
  `${event.id === undefined ? '' : `id: ${event.id}\n`}${event.type === undefined ? '' : `event: ${event.type}\n`}data: ${event.data}\n\n`;
