import { AppError } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies only, with Fastify's own hardened parser (it rejects `__proto__`, and `constructor`
 * holding a `prototype`), plus a refusal of every other `constructor` key: no contract has one, and
 * one rule is easier to state (docs/api.md). An empty body counts as no body: `POST /conversations`
 * has only optional fields.
 */
export const registerJsonBodyParser = (app: FastifyInstance): void => {
  const strict = app.getDefaultJsonParser('error', 'error');
  // JSON only: anything else (text/plain included) is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    strict(request, body.toString(), (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      if (hasConstructorKey(value)) {
        return done(new AppError('INVALID_REQUEST_BODY', 'a "constructor" key is not allowed', { field: 'constructor' }), undefined);
      }
      done(null, value);
    });
  });
};

const hasConstructorKey = (value: unknown): boolean => {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasConstructorKey);
  return Object.keys(value).some((key) => key === 'constructor' || hasConstructorKey((value as Record<string, unknown>)[key]));
};
