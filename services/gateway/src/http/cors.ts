import cors from '@fastify/cors';
import { AppError } from '@palaver/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IdentityCache } from '../auth/identity-cache';
import { toErrorResponse } from './errors';

const CORS_OPTIONS = {
  methods: ['GET', 'POST', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID', 'Idempotency-Key'],
  exposedHeaders: ['Retry-After', 'x-vercel-ai-ui-message-stream', 'idempotent-replayed'],
  maxAge: 600,
};

// Frozen: the delegator answers one of these two objects, and the library (patches/) then
// normalizes each once instead of for every request.
const ALLOWED = Object.freeze({ ...CORS_OPTIONS, origin: true });
const DENIED = Object.freeze({ ...CORS_OPTIONS, origin: false });

const isPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/**
 * CORS for the v2 surface. A browser origin is allowed when a live publishable key allows it
 * (the key in `apiKey` when the URL has one, else any key of any project: a preflight carries
 * no body or token). A preflight from any other origin gets 403. The real check is per request:
 * identity rejects a key or session whose key does not allow the request's Origin (403).
 * The admin API is not offered cross-origin.
 */
export const registerCors = async (app: FastifyInstance, identity: IdentityCache): Promise<void> => {
  const allowed = new WeakMap<FastifyRequest, boolean>();

  const originAllowed = async (request: FastifyRequest): Promise<boolean> => {
    const origin = request.headers.origin;
    if (!origin || !request.url.startsWith('/v2/')) return false;
    const apiKey = (request.query as Record<string, unknown> | undefined)?.apiKey;
    return identity.originAllowed(origin, typeof apiKey === 'string' && apiKey ? apiKey : null);
  };

  // Callback-style hooks: a request without an Origin (most of them) passes without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.headers.origin) return done();
    originAllowed(request).then((ok) => {
      allowed.set(request, ok);
      if (!ok && isPreflight(request)) {
        const { status, body } = toErrorResponse(new AppError('FORBIDDEN', 'origin not allowed'));
        reply.status(status).send(body); // answered here: the request goes no further
        return;
      }
      done();
    }, done);
  });

  // An error answered to a browser origin the key does not allow still carries CORS headers, so
  // the embedding page can read why (the 403 envelope) instead of a bare network failure. Only
  // error bodies are exposed this way; a success never reaches a disallowed origin.
  app.addHook('onSend', (request, reply, payload, done) => {
    const origin = request.headers.origin;
    if (origin && reply.statusCode >= 400 && !isPreflight(request) && request.url.startsWith('/v2/') && allowed.get(request) === false) {
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    }
    done(null, payload);
  });

  await app.register(cors, {
    hook: 'preHandler',
    delegator: (request, callback) => {
      callback(null, allowed.get(request as FastifyRequest) === true ? ALLOWED : DENIED);
    },
  });
};
