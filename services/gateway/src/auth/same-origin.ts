import { AppError } from '@palaver/contracts';
import type { FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request authenticated by the session cookie must come from the dashboard's own
 * origin: `Sec-Fetch-Site: same-origin` where the browser sends it, else an `Origin` equal to this
 * server's. A request with neither is refused too: every browser sends one on such requests, so
 * only a forged or stripped request lacks both. Answers 403 FORBIDDEN.
 */
export const assertSameOrigin = (request: FastifyRequest): void => {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') {
    if (site === 'same-origin') return;
    throw crossSite();
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin === `${request.protocol}://${request.host}`) return;
  throw crossSite();
};

const crossSite = (): AppError =>
  new AppError('FORBIDDEN', 'a request signed in by cookie must come from the dashboard itself (cross-site request refused)');

/**
 * Sign-in and accepting an invitation set a cookie: a page of another site must not sign the
 * browser in to an account of its choosing. Refused when the browser says the request is cross-site;
 * a client that is not a browser sends neither header and passes.
 */
export const assertNotCrossSite = (request: FastifyRequest): void => {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') {
    if (site === 'same-origin' || site === 'none') return;
    throw crossSite();
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== `${request.protocol}://${request.host}`) throw crossSite();
};
