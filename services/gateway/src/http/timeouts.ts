import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';

export interface HttpTimeouts {
  /**
   * A whole request (headers and body) must arrive within this, counted from its first byte, or
   * from the connection's opening for its first request: Node answers 408 and closes otherwise. So
   * a new connection that sends nothing is closed this long after it opened (or after
   * `idleTimeoutMs` if that is shorter).
   */
  requestTimeoutMs: number;
  /**
   * A connection silent this long outside a request is closed without an answer: between requests
   * (keep-alive), or while a request's headers are arriving. A request being answered is exempt
   * (`exemptRequestsInFlight`): a reply may take up to REPLY_TIMEOUT_MS, and event streams stay
   * silent between their keep-alive comments.
   */
  idleTimeoutMs: number;
}

/**
 * Fastify's defaults never time a connection out (`connectionTimeout` and `requestTimeout` are 0)
 * and keep an idle keep-alive connection 72 s whatever is configured; these bound both with the
 * two settings (docs/deployment.md, "Connection timeouts"). Node checks request deadlines on an
 * interval (30 s by default); at most a second keeps the 408 close to the configured deadline.
 */
export const timeoutOptions = ({ requestTimeoutMs, idleTimeoutMs }: HttpTimeouts): FastifyHttpOptions<Server> => ({
  requestTimeout: requestTimeoutMs,
  connectionTimeout: idleTimeoutMs,
  keepAliveTimeout: idleTimeoutMs,
  http: {
    requestTimeout: requestTimeoutMs,
    headersTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(requestTimeoutMs / 4))),
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
