import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies with Fastify's own hardened parser (it rejects __proto__ and constructor keys),
 * except that an empty body counts as no body: `POST /conversations` has only optional fields.
 */
export const registerJsonBodyParser = (app: FastifyInstance): void => {
  const strict = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    strict(request, body.toString(), done);
  });
};
