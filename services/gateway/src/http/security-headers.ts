import type { FastifyInstance } from 'fastify';

/**
 * The dashboard's page: its own scripts and styles only, its API on this origin; images may come
 * from any https URL (assistant avatars and chat button icons the admin sets). Inline styles are
 * allowed for the widget's preview, which the dashboard renders with the real /widget.js. No site
 * may frame it (clickjacking of the admin's session), and no URL of it leaks in a Referer.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const DASHBOARD_PATH = /^\/dashboard(?:[/?]|$)/;

const DASHBOARD_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * Every answer says `X-Content-Type-Options: nosniff` (a JSON or text answer is never run as a
 * script or page); the dashboard's answers also carry DASHBOARD_HEADERS. Static values set in a
 * callback-style hook: the hot path pays a header or two, no promise. The widget's script keeps
 * its cross-origin headers (widget.routes.ts) and the demo page, which embeds it, gets no CSP.
 */
export const registerSecurityHeaders = (app: FastifyInstance): void => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (request.url.startsWith('/dashboard') && DASHBOARD_PATH.test(request.url)) reply.headers(DASHBOARD_HEADERS);
    done();
  });
};
