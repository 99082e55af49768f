import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies only, with Fastify's own hardened parser (it rejects __proto__ and constructor keys),
 * except that an empty body counts as no body: `POST /conversations` has only optional fields.
 */
export const registerJsonBodyParser = (app: FastifyInstance): void => {
  const strict = app.getDefaultJsonParser('error', 'error');
  // JSON only: anything else (text/plain included) is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    strict(request, body.toString(), done);
  });
};
