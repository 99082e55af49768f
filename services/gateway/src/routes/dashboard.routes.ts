import fastifyStatic from '@fastify/static';
import { AppError } from '@palaver/contracts';
import { dashboardDistDir, isDashboardBuilt } from '@palaver/dashboard';
import type { FastifyInstance } from 'fastify';
import { toErrorResponse } from '../http/errors';

/** Hashed file names change with their content, so they can be cached for good; index.html never is. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/**
 * The dashboard's single-page app at /dashboard/. Files are served from the package's build;
 * any other path below /dashboard/ is a client-side route and gets index.html.
 */
export const dashboardRoutes = async (app: FastifyInstance, distDir = dashboardDistDir): Promise<void> => {
  app.get('/dashboard', async (_request, reply) => reply.redirect('/dashboard/', 308));

  if (!isDashboardBuilt(distDir)) {
    app.get('/dashboard/*', async (_request, reply) => {
      const { status, body } = toErrorResponse(
        new AppError('SERVICE_UNAVAILABLE', 'the dashboard is not built: run `pnpm install` (or `pnpm build:ui`)'),
      );
      return reply.status(status).send(body);
    });
    return;
  }

  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/dashboard/',
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      res.header('cache-control', filePath.includes('/assets/') ? IMMUTABLE : NO_CACHE);
      res.header('x-content-type-options', 'nosniff');
    },
  });
  // A missing asset is a 404 (a stale index.html asking for an old hash), not the app's HTML.
  app.get('/dashboard/assets/*', async (request) => {
    throw new AppError('NOT_FOUND', `no asset ${request.url.split('?')[0]}`);
  });
  app.get('/dashboard/*', async (_request, reply) => reply.header('cache-control', NO_CACHE).sendFile('index.html'));
};
