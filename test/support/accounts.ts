import { type HttpResult, http } from './e2e-app';

export const PASSWORD = 'violet-kettle-92-harbour';

/** The session cookie a sign-in answer sets, as a Cookie header value. */
export const cookieOf = (result: HttpResult): string => {
  const cookie = result.headers.getSetCookie().find((c) => c.startsWith('palaver_session='));
  if (!cookie) throw new Error(`no session cookie in ${result.status}: ${result.text}`);
  return cookie.split(';')[0]!;
};

/** A user created by the admin token, signed in: their id and cookie. */
export const signedInUser = async (url: string, adminToken: string, email: string, name = email.split('@')[0]!) => {
  const created = await http(`${url}/admin/v1/users`, { token: adminToken, body: { email, name, password: PASSWORD } });
  if (created.status !== 201) throw new Error(`create user -> ${created.status}: ${created.text}`);
  const login = await http(`${url}/auth/v1/login`, { body: { email, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login -> ${login.status}: ${login.text}`);
  return { id: created.body.id as string, cookie: cookieOf(login) };
};

/** A call as the dashboard makes it: the cookie, and the page's own origin. */
export const asUser = (
  url: string,
  cookie: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) => http(`${url}${path}`, { ...init, headers: { cookie, origin: url, ...init.headers } });
