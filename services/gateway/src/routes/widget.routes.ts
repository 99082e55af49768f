import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { AppError } from '@palaver/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../gateway.deps';
import { demoPage } from './widget-demo.page';

/** The bundle `pnpm install` builds (packages/widget, `build:ui`). */
const bundlePath = (): string => createRequire(import.meta.url).resolve('@palaver/widget/widget.js');

interface Bundle {
  mtimeMs: number;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/**
 * The widget bundle, read once and again only when the file changes (a rebuild), with its
 * ETag and a gzipped copy. The URL is not versioned (site owners paste it once), so browsers
 * may use their copy for 5 minutes and then revalidate with the ETag (304 when unchanged).
 */
const bundleCache = () => {
  let cached: Bundle | null = null;
  return async (): Promise<Bundle> => {
    const path = bundlePath();
    const info = await stat(path).catch(() => null);
    if (!info) throw new AppError('NOT_FOUND', 'the widget bundle is not built: run `pnpm install` or `pnpm build:ui`');
    if (cached?.mtimeMs === info.mtimeMs) return cached;
    const body = await readFile(path);
    cached = {
      mtimeMs: info.mtimeMs,
      body,
      gzipped: gzipSync(body, { level: 9 }),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    return cached;
  };
};

const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

const sendBundle = (bundle: Bundle, request: FastifyRequest, reply: FastifyReply) => {
  reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', CACHE_CONTROL)
    .header('etag', bundle.etag)
    .header('vary', 'Accept-Encoding')
    // Any site may load the script, also one that sets Cross-Origin-Embedder-Policy.
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
  const match = request.headers['if-none-match'];
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bundle.etag)) return reply.status(304).send();
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
    return reply.header('content-encoding', 'gzip').send(bundle.gzipped);
  return reply.send(bundle.body);
};

/** `/widget.js` (the embeddable widget) and `/demo` (a page that embeds it with the demo key). */
export const widgetRoutes = (app: FastifyInstance, deps: GatewayDeps): void => {
  const bundle = bundleCache();
  app.get('/widget.js', async (request, reply) => sendBundle(await bundle(), request, reply));
  app.get('/demo', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const key = typeof query.key === 'string' && query.key.startsWith('pk_') ? query.key : (deps.demo?.publishableKey ?? null);
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(demoPage(key, `${request.protocol}://${request.host}`));
  });
};
