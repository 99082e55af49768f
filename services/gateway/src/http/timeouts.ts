import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';

export interface HttpTimeouts {
  /** A whole request (headers and body) must arrive within this; Node answers 408 otherwise. */
  requestTimeoutMs: number;
  /**
   * A connection silent this long before its request arrives is closed. A request in flight is
   * exempt (`exemptRequestsInFlight`): a reply may take up to REPLY_TIMEOUT_MS, and streams stay
   * silent while there is nothing to send. Between requests Fastify's keep-alive timeout applies.
   */
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
 * Lifts the idle timeout while a request is being answered (Node restores its own after the
 * response). A callback-style hook: an async one costs every request a promise and a turn. An
 * injected request (`app.inject`) has no real socket, and no timeout to lift.
 */
export const exemptRequestsInFlight = (app: FastifyInstance): void => {
  app.addHook('onRequest', (request, _reply, done) => {
    request.raw.socket?.setTimeout?.(0);
    done();
  });
};
