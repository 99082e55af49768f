import type { FastifyReply, FastifyRequest } from 'fastify';

/** The dashboard's session cookie: an opaque `us_` token, the session itself kept by identity. */
export const SESSION_COOKIE = 'palaver_session';

/** The cookie's value, or null; other cookies are ignored. */
export const sessionCookieOf = (request: FastifyRequest): string | null => {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value.length > 0 && value.length <= 200 ? value : null;
    }
  }
  return null;
};

/**
 * httpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Secure when the
 * request came over https (directly or through a trusted proxy's X-Forwarded-Proto). Max-Age is
 * the idle lifetime, renewed with each use as the session is.
 */
export const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void => {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`);
};

export const clearSessionCookie = (request: FastifyRequest, reply: FastifyReply): void => setSessionCookie(request, reply, '', 0);
