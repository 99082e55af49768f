/**
 * Which browser origins a publishable key accepts.
 *
 * An allowed-origins entry is `*` (any origin), an exact origin (`https://shop.example.com`),
 * or a subdomain wildcard (`https://*.example.com`: any subdomain, not the apex). Comparison is
 * case-insensitive and ignores a trailing slash and the scheme's default port, as browsers
 * never send either. An empty list leaves the key unrestricted.
 */

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };
const HTTP_ORIGIN = /^(https?):\/\/([^/:?#\s]+|\[[^\]]+\])(?::(\d+))?$/;

export const ANY_ORIGIN = '*';

export const normalizeOrigin = (origin: string): string => {
  const trimmed = origin.trim().toLowerCase().replace(/\/+$/, '');
  const match = HTTP_ORIGIN.exec(trimmed);
  if (!match) return trimmed;
  const [, scheme, host, port] = match as unknown as [string, string, string, string | undefined];
  return port === undefined || port === DEFAULT_PORT[scheme] ? `${scheme}://${host}` : `${scheme}://${host}:${port}`;
};

/** Every allowed-origins entry (normalized) that admits this origin: `*`, itself, and its parent-domain wildcards. */
export const admittingEntries = (origin: string): string[] => {
  const normalized = normalizeOrigin(origin);
  const entries = [ANY_ORIGIN, normalized];
  const match = HTTP_ORIGIN.exec(normalized);
  if (!match) return entries;
  const [, scheme, host, port] = match as unknown as [string, string, string, string | undefined];
  if (host.startsWith('[')) return entries;
  const suffix = port === undefined ? '' : `:${port}`;
  const labels = host.split('.');
  for (let i = 1; i < labels.length; i++) entries.push(`${scheme}://*.${labels.slice(i).join('.')}${suffix}`);
  return entries;
};

/**
 * Whether a key with these allowed origins accepts a request from `origin`. A request without an
 * origin (server to server, no Origin header) is not a browser request and passes: origin
 * restriction protects a key embedded in web pages, it is not a secret.
 */
export const isOriginAllowed = (allowedOrigins: readonly string[], origin: string | null): boolean => {
  if (origin === null || allowedOrigins.length === 0) return true;
  const admitting = new Set(admittingEntries(origin));
  return allowedOrigins.some((entry) => admitting.has(normalizeOrigin(entry)));
};

/**
 * What a key stores to be found by origin with one indexed `$in` query on `admittingEntries`:
 * its normalized entries, or `*` when the list is empty (unrestricted).
 */
export const originMatchEntries = (allowedOrigins: readonly string[]): string[] =>
  allowedOrigins.length === 0 ? [ANY_ORIGIN] : [...new Set(allowedOrigins.map(normalizeOrigin))];
