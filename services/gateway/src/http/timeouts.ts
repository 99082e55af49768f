import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyReply } from 'fastify';

export interface HttpTimeouts {
  /** A whole request (headers and body) must arrive within this; Node answers 408 otherwise. */
  requestTimeoutMs: number;
  /** A connection with no traffic this long is closed; event streams opt out (`exemptFromIdleTimeout`). */
  idleTimeoutMs: number;
}

/**
 * Fastify's defaults never time a connection out (`connectionTimeout` and `requestTimeout` are 0),
 * so a client could hold sockets open forever or trickle a body. Node checks request deadlines on
 * an interval (30 s by default); a shorter one keeps the bound close to what is configured.
 */
export const timeoutOptions = ({ requestTimeoutMs, idleTimeoutMs }: HttpTimeouts): FastifyHttpOptions<Server> => ({
  requestTimeout: requestTimeoutMs,
  connectionTimeout: idleTimeoutMs,
  http: {
    requestTimeout: requestTimeoutMs,
    headersTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4))),
  },
});

/**
 * Call on every long-lived response (`text/event-stream`): its socket is exempt from the idle
 * timeout, since a stream may stay silent while the model thinks or a feed has nothing new.
 */
export const exemptFromIdleTimeout = (reply: FastifyReply): void => {
  reply.raw.socket?.setTimeout(0);
};
