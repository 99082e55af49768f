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
  /** True once the client went away before `end` (a reload, a lost network). */
  readonly isGone: boolean;
  /**
   * Calls `listener` once when the client goes away before `end` (never when it already has:
   * check `isGone`); returns what removes it.
   */
  onGone(listener: () => void): () => void;
  /** Aborted once the client goes away before `end`: for the APIs that take a signal. */
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
  return new ResponseStream(raw, keepAliveMs);
};

/**
 * An open stream as a class, its methods shared, and the client's leaving as a flag and a list
 * rather than an AbortController: every open reply has one, and the signal (an EventTarget with
 * maps of its own) and per-stream closures weighed more than the rest of an idle stream's state
 * beyond its socket. The signal is made only for the callers that ask for it.
 */
class ResponseStream implements OpenStream {
  isGone = false;
  private listeners: Array<() => void> | null = null;
  private left: AbortController | null = null;
  private lastWrite = Date.now();
  private readonly keepAlive: NodeJS.Timeout | null;

  constructor(
    readonly raw: ServerResponse,
    keepAliveMs: number | undefined,
  ) {
    this.keepAlive =
      keepAliveMs === undefined ? null : setInterval(() => this.keepAliveIfIdle(keepAliveMs), Math.max(1, Math.floor(keepAliveMs / 2)));
    this.keepAlive?.unref();
    raw.once('close', () => this.closed());
  }

  get gone(): AbortSignal {
    if (!this.left) {
      this.left = new AbortController();
      if (this.isGone) this.left.abort();
    }
    return this.left.signal;
  }

  onGone(listener: () => void): () => void {
    if (this.isGone) return () => undefined;
    if (this.listeners) this.listeners.push(listener);
    else this.listeners = [listener];
    return () => {
      if (this.listeners) this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  async write(text: string): Promise<void> {
    const raw = this.raw;
    if (this.isGone || raw.destroyed) return;
    this.lastWrite = Date.now();
    if (raw.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        raw.off('drain', done);
        stopWaiting();
        resolve();
      };
      raw.once('drain', done);
      const stopWaiting = this.onGone(done);
    });
  }

  end(text?: string): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    const raw = this.raw;
    if (raw.writableEnded || raw.destroyed) return;
    if (text === undefined) raw.end();
    else raw.end(text);
  }

  private keepAliveIfIdle(keepAliveMs: number): void {
    const raw = this.raw;
    if (Date.now() - this.lastWrite < keepAliveMs || raw.writableEnded || raw.destroyed) return;
    raw.write(': keep-alive\n\n');
    this.lastWrite = Date.now();
  }

  private closed(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (this.raw.writableFinished || this.isGone) return;
    this.isGone = true;
    const listeners = this.listeners;
    this.listeners = null;
    this.left?.abort();
    if (listeners) for (const listener of listeners) listener();
  }
}

/** One server-sent event: `id:`, `event:` and `data:` lines (those given), then a blank line. */
export const sseEvent = (event: { id?: string; type?: string; data: string }): string =>
  `${event.id === undefined ? '' : `id: ${event.id}\n`}${event.type === undefined ? '' : `event: ${event.type}\n`}data: ${event.data}\n\n`;
